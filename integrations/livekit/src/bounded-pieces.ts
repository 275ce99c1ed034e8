// A LiveKit tokenizer's sentence may be any length (a run-on answer, a table without stops): cut
// it as the agent's segmenter cuts a long sentence, so that no piece reaches the normaliser or the
// container unbounded (runtime/src/text/README.md, maxChars).
import { SEGMENTER_DEFAULTS } from '@kokoro-speech/runtime/text';

const CLAUSE = /[,;:—–]\s/gu;

/**
 * `text` in pieces of at most `max` characters: each cut at the last clause mark in reach (past a
 * third of it), else the last whitespace, else hard (never inside a surrogate pair). Linear.
 */
export function boundedPieces(text: string, max: number = SEGMENTER_DEFAULTS.maxChars): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const reach = rest.slice(0, max + 1);
    let cut = -1;
    for (const m of reach.matchAll(CLAUSE)) if (m.index + 1 > max / 3 && m.index + 1 <= max) cut = m.index + 1;
    if (cut < 0) {
      const space = reach.search(/\s\S*$/u);
      cut = space > 0 ? space : max;
    }
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '') out.push(rest);
  return out;
}
