// The answer's words: each in a span laid over its sentence's text, and the one being spoken
// marked, from the worklet's playback position (word times are on the turn's audio clock).

/** The sentence's words, each in a span (for highlighting), laid over its text. */
export function renderWords(s) {
  const text = s.el.textContent;
  const lead = s.text.length - s.text.trimStart().length; // s.el holds the trimmed text at s.at
  const parts = [];
  let at = 0;
  for (const [i, w] of s.words.entries()) {
    const from = s.at + w.start - lead;
    const to = s.at + w.end - lead;
    if (from < at || to > text.length || text.slice(from, to) !== w.text) continue; // not where expected
    if (from > at) parts.push(document.createTextNode(text.slice(at, from)));
    const span = document.createElement('span');
    span.className = 'word';
    span.dataset.word = String(i);
    span.textContent = w.text;
    parts.push(span);
    at = to;
  }
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  s.el.replaceChildren(...parts);
  s.wordEls = [...s.el.querySelectorAll('.word')];
}

/** Marks the word being spoken at the worklet's playback position (ms on the turn's audio clock). */
function highlightWord(turn, player) {
  const played = player.position(turn.n);
  if (played == null || !turn.sampleRate) return;
  const ms = (played / turn.sampleRate) * 1000;
  let found = null;
  for (const s of turn.sentences) {
    if (s.filler) continue;
    const i = s.words?.findIndex((w) => w.start_ms <= ms && ms < w.end_ms) ?? -1;
    if (i >= 0) found = { s, i };
    if (found) break;
  }
  const el = found ? found.s.el.querySelector(`.word[data-word="${found.i}"]`) : null;
  if (el === turn.nowWord) return;
  turn.nowWord?.classList.remove('now');
  turn.nowWord = el;
  if (el) {
    el.classList.add('now');
    const w = found.s.words[found.i];
    turn.highlights.push({
      id: found.s.id,
      word: found.i,
      text: w.text,
      start_ms: w.start_ms,
      end_ms: w.end_ms,
      atMs: ms,
      at: performance.now() - turn.t0,
    });
  }
}

/** Follows the turn's playback frame by frame until it is over. */
export function followWords(turn, player) {
  if (turn.finished) {
    turn.nowWord?.classList.remove('now');
    return;
  }
  highlightWord(turn, player);
  requestAnimationFrame(() => followWords(turn, player));
}
