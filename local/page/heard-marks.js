// What the caller heard of an interrupted answer, marked on the page by the rule the agent cuts its
// history with: the same file, protocol/src/heard-cut.js. Sentences heard whole, then the one
// playing cut at the last word heard (exact word timings) or in proportion at a word end; fillers
// take time but are notes, not part of the answer's text.
import { heardCut } from '/vendor/kokoro-speech/heard-cut.js';
import { note } from './view.js';

/** The turn's sentences as the rule takes them (word times from each sentence's first sample). */
function cutInput(turn, rate) {
  let clock = 0; // where each sentence starts on the turn's audio clock: sentences back to back
  return turn.sentences.map((s) => {
    const deliveredMs = (s.samples / rate) * 1000;
    const start = clock;
    clock += s.duration_ms ?? deliveredMs;
    return {
      text: s.text,
      durationMs: s.duration_ms,
      deliveredMs,
      words: s.words?.map((w) => ({ textEnd: w.end, endMs: w.end_ms - start })),
      wordsEstimated: s.wordsEstimated,
    };
  });
}

/** Splits the sentence's span after `chars` characters of its text: the heard words, then the rest. */
function splitSpan(s, chars) {
  const full = s.el.textContent;
  const lead = s.text.length - s.text.trimStart().length; // s.el holds the trimmed text at s.at
  const keep = Math.max(0, Math.min(full.length, s.at + Math.max(0, chars - lead)));
  const heard = document.createElement('span');
  heard.className = 'heard';
  heard.textContent = full.slice(0, keep); // with the gap before the sentence
  const rest = document.createElement('span');
  rest.className = 'unheard';
  rest.textContent = full.slice(keep);
  s.el.replaceChildren(heard, rest);
}

/** Marks what was heard of the turn after `turn.playedMs` of its audio; returns the heard text. */
export function markHeard(turn, sampleRate) {
  const cut = heardCut(cutInput(turn, sampleRate), turn.playedMs);
  for (const [i, s] of turn.sentences.entries()) {
    if (s.filler) continue;
    if (i < cut.whole) s.el.classList.add('heard');
    else if (i === cut.whole && cut.chars !== null) splitSpan(s, cut.chars);
    else s.el.classList.add('unheard');
  }
  turn.tail.classList.add('unheard');
  turn.heardText = [...turn.answerEl.querySelectorAll('.heard')]
    .map((el) => el.textContent)
    .join('')
    .trim();
  note(turn, `cut at ${(turn.playedMs / 1000).toFixed(1)} s: the agent remembers what you heard`, 'cut');
  return turn.heardText;
}
