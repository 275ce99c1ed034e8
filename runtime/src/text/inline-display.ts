// A sentence as callers are shown it: misaki's inline pronunciation `[Kokoro](/kˈOkəɹO/)` (passed
// on to the container as written, normalize/en/markup.ts) shows as just the word, with a map from
// offsets in the sentence as written to offsets in the one shown (for word events).
import { INLINE_PHONEMES_MAX, INLINE_PRONUNCIATION, INLINE_WORD_MAX } from './normalize/en/markup.ts';

const INLINE = new RegExp(INLINE_PRONUNCIATION, 'gu');

export interface ShownText {
  text: string;
  /** The offset in `text` of an offset in the sentence as written. */
  at(offset: number): number;
}

export function shownText(written: string): ShownText {
  if (!written.includes('](/')) return { text: written, at: (offset) => offset };
  let text = '';
  /** map[i]: where written offset i lands in the shown text. */
  const map: number[] = [];
  let cursor = 0;
  const copy = (to: number) => {
    for (; cursor < to; cursor++) {
      map.push(text.length);
      text += written[cursor];
    }
  };
  for (const m of written.matchAll(INLINE)) {
    copy(m.index);
    const word = m[1]!;
    map.push(text.length); // "["
    for (let k = 0; k < word.length; k++) map.push(text.length + k);
    text += word;
    for (let k = 1 + word.length; k < m[0].length; k++) map.push(text.length); // "](/.../)"
    cursor = m.index + m[0].length;
  }
  copy(written.length);
  map.push(text.length);
  return { text, at: (offset) => map[Math.max(0, Math.min(offset, written.length))]! };
}

/**
 * A run that may still become an inline pronunciation: "[word", "[word]", "[word](", "[word](/ph".
 * Bounded as INLINE_PRONUNCIATION is: a "[" further back than that can no longer open one.
 */
const UNFINISHED = new RegExp(
  `\\[(?:[^\\]\\n]{0,${INLINE_WORD_MAX}}|[^\\]\\n]{1,${INLINE_WORD_MAX}}\\](?:\\((?:/[^()\\n]{0,${INLINE_PHONEMES_MAX + 1}})?)?)$`,
  'uy',
);
const WHOLE = new RegExp(INLINE_PRONUNCIATION, 'uy');

/**
 * The LLM's `text` deltas as shown: each inline pronunciation as its word. A delta that ends in
 * what may still become one is held back until the next delta settles it (or `flush`). The held
 * text is bounded (one unfinished markup), so each push costs O(delta).
 */
export class ShownTextStream {
  #pending = '';

  push(delta: string): string {
    const text = this.#pending + delta;
    let hold = text.length;
    // Read the "["s in order as shownText's scan does: one that opens a whole inline pronunciation
    // is skipped with it (a "[" inside its phonemes opens nothing); the first that may still open
    // one holds the rest back.
    for (let i = text.indexOf('['); i >= 0;) {
      WHOLE.lastIndex = i;
      if (WHOLE.test(text)) {
        i = text.indexOf('[', WHOLE.lastIndex);
        continue;
      }
      UNFINISHED.lastIndex = i;
      if (UNFINISHED.test(text)) {
        hold = i;
        break;
      }
      i = text.indexOf('[', i + 1);
    }
    this.#pending = text.slice(hold);
    return shownText(text.slice(0, hold)).text;
  }
  /** What is held back, as it is (the answer ended before it became markup). */
  flush(): string {
    const rest = shownText(this.#pending).text;
    this.#pending = '';
    return rest;
  }
}
