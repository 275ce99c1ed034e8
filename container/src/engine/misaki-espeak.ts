// misaki's espeak G2P for Kokoro v1.0 (EspeakG2P, version None: what hexgrad/kokoro's pipeline uses
// for e, f, h, i, p), re-implemented rule by rule from misaki/espeak.py at the commit that
// docs/design/languages.md names: quotes and parentheses swapped around phonemizer, espeak-ng's
// tied phonemes mapped to Kokoro's single symbols, ties and hyphens deleted.
import { TIE } from './espeak-wasm.ts';
import { phonemizeLine } from './phonemizer-line.ts';

/**
 * Tied espeak-ng phonemes and Kokoro's symbol for each (EspeakG2P.e2m). misaki applies them in
 * the order of Python's sorted(): by code point of the key, which this list keeps.
 */
export const E2M: readonly (readonly [string, string])[] = [
  ['a^ɪ', 'I'],
  ['a^ʊ', 'W'],
  ['d^z', 'ʣ'],
  ['d^ʒ', 'ʤ'],
  ['e^ɪ', 'A'],
  ['o^ʊ', 'O'],
  ['s^s', 'S'],
  ['t^s', 'ʦ'],
  ['t^ʃ', 'ʧ'],
  ['ɔ^ɪ', 'Y'],
  ['ə^ʊ', 'Q'],
];

/** misaki's text swaps before phonemizing: « » become curly quotes, ( ) become « ». */
export function beforePhonemizer(text: string): string {
  return text.replaceAll('«', '\u201c').replaceAll('»', '\u201d').replaceAll('(', '«').replaceAll(')', '»');
}

/** misaki's rules on phonemizer's output: strip, e2m, no ties, no hyphens, « » back to ( ). */
export function afterPhonemizer(phonemized: string): string {
  let ps = phonemized.trim();
  for (const [tied, symbol] of E2M) ps = ps.replaceAll(tied, symbol);
  ps = ps.replaceAll(TIE, '');
  ps = ps.replaceAll('-', '');
  return ps.replaceAll('«', '(').replaceAll('»', ')');
}

/** misaki's EspeakG2P(language)(text)[0], given espeak-ng's clauses (tie form) of a piece of text. */
export function misakiEspeak(text: string, clauses: (piece: string) => string[]): string {
  return afterPhonemizer(phonemizeLine(beforePhonemizer(text), clauses));
}
