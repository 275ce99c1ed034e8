// A sentence as callers are shown it: misaki's inline pronunciation `[Kokoro](/kˈOkəɹO/)` (passed
// on to the container as written, normalize/en/markup.ts) shows as just the word, with a map from
// offsets in the sentence as written to offsets in the one shown (for word events).
import { INLINE_PRONUNCIATION } from './normalize/en/markup.ts';

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
