// What the caller heard of an interrupted answer: the rule that maps a playback position (ms of
// the turn's audio played, from its first sample) to a place in the sentences, so that the agent
// keeps in its history what was heard and the page marks the same cut. Plain JavaScript, so that
// the page loads it as it is; the agent imports the same file (runtime/src/conversation/heard.ts).
// The rule:
// - sentences in audio order, each lasting its `durationMs` (one not fully delivered yet: what was
//   delivered, or at least its length at the turn's speaking rate); a sentence with no duration
//   and nothing delivered never reached the caller, and neither did any after it;
// - every sentence that ends at or before the position was heard whole;
// - in the one playing at the position, the words that ended by then when the container timed them
//   from the model's durations, else (no word timings, or timings only estimated from token
//   counts) the same fraction of its characters, cut back to the last whole word.
// Fillers (spoken while a tool ran) take time like any sentence; the callers map them to no text.

/** When no sentence of the turn completed: Kokoro's pace on real text is about this. */
export const DEFAULT_MS_PER_CHAR = 60;

/**
 * Where `playedMs` falls in `sentences`: the first `whole` of them were heard to their end; of
 * the next one, `chars` characters of its text (whole words), or null when its audio had not
 * started at the position (or there is no next one); `all`: every sentence that reached the
 * caller was heard to its end.
 */
export function heardCut(sentences, playedMs) {
  const complete = sentences.filter((s) => s.durationMs != null && s.text.length > 0);
  const msPerChar =
    complete.length > 0
      ? complete.reduce((a, s) => a + s.durationMs, 0) / complete.reduce((a, s) => a + s.text.length, 0)
      : DEFAULT_MS_PER_CHAR;
  let t = 0;
  for (const [i, s] of sentences.entries()) {
    if (s.durationMs == null && s.deliveredMs === 0) return { whole: i, chars: null, all: true };
    const d = s.durationMs ?? Math.max(s.deliveredMs, s.text.length * msPerChar);
    if (playedMs >= t + d) {
      t += d;
      continue;
    }
    return { whole: i, chars: playedMs > t ? heardChars(s, playedMs - t, d) : null, all: false };
  }
  return { whole: sentences.length, chars: null, all: true };
}

const UNSPACED_WORD_TAIL = /[^\s\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]*$/u;

/** Characters of the sentence heard after `ms` of its `duration` ms of audio (whole words only). */
function heardChars(s, ms, duration) {
  if (s.words && s.words.length > 0 && !s.wordsEstimated)
    return s.words.filter((w) => w.endMs <= ms).at(-1)?.textEnd ?? 0;
  const chars = Math.floor((ms / duration) * s.text.length);
  if (chars >= s.text.length) return s.text.length;
  // Mid-word: back to the end of the last whole word. Scripts written without spaces (Han, kana)
  // have no spaces to go back to: each of their characters counts as a word.
  const head = /\s/.test(s.text[chars] ?? ' ')
    ? s.text.slice(0, chars)
    : s.text.slice(0, chars).replace(UNSPACED_WORD_TAIL, '');
  return head.trimEnd().length;
}
