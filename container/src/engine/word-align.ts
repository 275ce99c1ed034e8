// Which of a piece's tokens speak which word of its text. kokoro-js phonemises a whole sentence at
// once (espeak-ng merges and splits words: "of the" becomes one phoneme word, "25" two), so the
// sentence's phonemes are aligned, character by character, to the phonemes of each word said on its
// own (an edit-distance alignment: the same sounds line up even where stress or a merge differs).
// Written by hand: no npm package aligns espeak output back to words, and the alignment is ~80 lines.
import type { PieceWord } from './types.ts';

/** Punctuation kokoro-js keeps apart from espeak-ng's phonemes (its own split set), plus spaces. */
const GAP = /[\s;:,.!?¡¿—…"«»“”(){}[\]]/u;
/** Stress and length marks: cheap to insert or drop, since a word alone may be stressed differently. */
const MARK = /[ˈˌː]/u;
/** A word is a run of non-space characters with at least one letter or digit. */
const WORD = /\S+/gu;
const SPEAKABLE = /[\p{L}\p{N}]/u;

export interface TextWord {
  /** Offsets into the utterance text. */
  start: number;
  end: number;
  text: string;
}

/** The words of `text` (offsets shifted by `offset`), in order. */
export function wordsOf(text: string, offset = 0): TextWord[] {
  const out: TextWord[] = [];
  for (const m of text.matchAll(WORD)) {
    if (SPEAKABLE.test(m[0])) out.push({ start: offset + m.index, end: offset + m.index + m[0].length, text: m[0] });
  }
  return out;
}

/**
 * Token ranges of each word. `phonemes` are the piece's phonemes, `tokensPerChar[i]` how many of
 * the piece's tokens character i of them became (0 for characters the vocabulary drops), and
 * `wordPhonemes[w]` the phonemes of word w said alone.
 */
export function alignWords(
  words: readonly TextWord[],
  phonemes: string,
  tokensPerChar: readonly number[],
  wordPhonemes: readonly string[],
): PieceWord[] {
  const chars = [...phonemes];
  // Token index of each phoneme character (the first token it became).
  const tokenAt: number[] = [];
  let t = 0;
  for (let i = 0; i < chars.length; i++) {
    tokenAt.push(t);
    t += tokensPerChar[i] ?? 0;
  }
  // B: the sentence's sounding characters; A: each word's, labelled with the word.
  const b = chars.flatMap((ch, i) => (GAP.test(ch) || (tokensPerChar[i] ?? 0) === 0 ? [] : [i]));
  const a: { ch: string; word: number }[] = [];
  wordPhonemes.forEach((p, w) => {
    for (const ch of p) if (!GAP.test(ch)) a.push({ ch, word: w });
  });
  const label = align(
    a,
    b.map((i) => chars[i]!),
  );
  // Characters of the sentence that matched nothing take the word of their phoneme word's neighbour.
  const wordOfB: number[] = label.slice();
  for (let k = 0; k < wordOfB.length; k++) {
    if (wordOfB[k]! >= 0) continue;
    const sameRun = (j: number) =>
      !chars.slice(Math.min(b[j]!, b[k]!), Math.max(b[j]!, b[k]!) + 1).some((c) => /\s/.test(c));
    let j = k - 1;
    while (j >= 0 && wordOfB[j]! < 0) j--;
    if (j >= 0 && sameRun(j)) wordOfB[k] = wordOfB[j]!;
    else {
      let n = k + 1;
      while (n < wordOfB.length && label[n]! < 0) n++;
      wordOfB[k] = n < wordOfB.length ? label[n]! : j >= 0 ? wordOfB[j]! : 0;
    }
  }
  const out: PieceWord[] = words.map((w) => ({ start: w.start, end: w.end, tokenStart: -1, tokenEnd: -1 }));
  b.forEach((charIndex, k) => {
    const w = out[wordOfB[k]!];
    if (!w) return;
    const first = tokenAt[charIndex]!;
    const last = first + (tokensPerChar[charIndex] ?? 1);
    if (w.tokenStart < 0) w.tokenStart = first;
    w.tokenEnd = Math.max(w.tokenEnd, last);
  });
  // A word with no sound of its own (all merged away) sits, empty, where the previous one ended.
  let end = 0;
  for (const w of out) {
    if (w.tokenStart < 0) w.tokenStart = w.tokenEnd = end;
    w.tokenStart = Math.max(w.tokenStart, end); // alignment is monotonic; this only guards rounding
    w.tokenEnd = Math.max(w.tokenEnd, w.tokenStart);
    end = w.tokenEnd;
  }
  return out;
}

/** Edit-distance alignment of a to b: for each character of b, the word of its partner in a, or -1. */
function align(a: readonly { ch: string; word: number }[], b: readonly string[]): number[] {
  const n = a.length;
  const m = b.length;
  const indel = (ch: string) => (MARK.test(ch) ? 1 : 2);
  const cost = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = 1; i <= n; i++) cost[at(i, 0)] = cost[at(i - 1, 0)]! + indel(a[i - 1]!.ch);
  for (let j = 1; j <= m; j++) cost[at(0, j)] = cost[at(0, j - 1)]! + indel(b[j - 1]!);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const sub = cost[at(i - 1, j - 1)]! + (a[i - 1]!.ch === b[j - 1] ? 0 : 3);
      const del = cost[at(i - 1, j)]! + indel(a[i - 1]!.ch);
      const ins = cost[at(i, j - 1)]! + indel(b[j - 1]!);
      cost[at(i, j)] = Math.min(sub, del, ins);
    }
  }
  const label = new Array<number>(m).fill(-1);
  for (let i = n, j = m; i > 0 || j > 0;) {
    const here = cost[at(i, j)]!;
    if (i > 0 && j > 0 && here === cost[at(i - 1, j - 1)]! + (a[i - 1]!.ch === b[j - 1] ? 0 : 3)) {
      label[j - 1] = a[i - 1]!.word;
      i--;
      j--;
    } else if (i > 0 && here === cost[at(i - 1, j)]! + indel(a[i - 1]!.ch)) i--;
    else j--;
  }
  return label;
}
