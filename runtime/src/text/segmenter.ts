// Cuts an LLM's streamed text into speakable pieces as early as is safe (rules: README.md here).
import { isAlnum, isOpen, isSpace, readLineStart, stepNesting, type Nesting } from './segmenter-rules.ts';
import {
  resolveSegmenterOptions,
  type Piece,
  type SegmenterOptions,
  type ResolvedOptions,
} from './segmenter-options.ts';
import { isClauseEnd, longCutAt, readListMarker, readSentenceMark, type ListMarker } from './segmenter-marks.ts';
import { isUnspacedLetter, languageRules, type LanguageRules } from './segmenter-languages.ts';

export type { Piece, SegmenterOptions } from './segmenter-options.ts';
export { SEGMENTER_DEFAULTS } from './segmenter-options.ts';
export { SEGMENTER_LANGUAGES, type SegmenterLanguage } from './segmenter-languages.ts';

const CLEAR: Nesting = { depth: 0, straightQuote: false };
const WORD_LEAD = /^[^\p{L}\p{N}]+/u;
/** How far past a terminator a decision may look (a month name, a dot, spaces, a digit). */
const LOOKAHEAD = 24;
/**
 * The longest word a decision reads before a terminator: longer tokens are read by their end, so
 * a run without spaces is not kept whole (and abbreviations are short).
 */
const WORD_MAX = 64;
/** A wait shorter than this is retried on every push; a longer one when its text has doubled. */
const RETRY_SPAN = 64;

/**
 * Streaming segmenter: push() text deltas, get the pieces they complete; flush() at the end of the
 * answer returns the rest and resets for the next answer. Cuts depend only on the text, never on
 * how it was split into deltas: every decision that needs to see ahead waits for that text.
 * Each character is scanned once, and text a decision waits on is read again only while it is
 * short or once it has doubled, so a push costs amortised O(delta) however long a run of marks
 * or of text without spaces is; only the unfinished piece (and a word's end) is kept.
 */
export class SentenceSegmenter {
  readonly options: ResolvedOptions;
  readonly #rules: LanguageRules;
  #text = ''; // unfinished text; #text[0] is at answer offset #base
  #base = 0;
  #i = 0; // scan position in #text
  #count = 0; // pieces emitted in this answer
  #pieceStart = -1; // answer offset of the unfinished piece's first non-space character
  #tokenStart = -1;
  #inToken = false;
  #tokenHasAlnum = false;
  #words = 0;
  #lastClause = -1; // answer offset just after the last clause boundary in the piece
  #lastSpace = -1;
  #nesting: Nesting = CLEAR;
  #atLineStart = true;
  #lineIndentEnd = 0;
  #fence = ''; // the open code fence's marker, '' outside fences
  #fencePiece = false; // the unfinished piece holds a code block: never cut by length
  #list: { style: string; next: number } | null = null; // the line's list, from its first marker
  #markerEnd = 0; // answer offset where the list marker being read ends (its dot is no terminator)
  #waitSpan = 0; // how much text past the scan position the last scan waited on (0: it did not wait)

  constructor(options: SegmenterOptions = {}) {
    this.options = resolveSegmenterOptions(options);
    this.#rules = languageRules(this.options.language);
  }

  /** Number of pieces emitted so far in this answer (the next piece is the first when 0). */
  get emitted(): number {
    return this.#count;
  }

  push(delta: string): string[] {
    return this.pushSpans(delta).map((p) => p.text);
  }

  flush(): string[] {
    return this.flushSpans().map((p) => p.text);
  }

  pushSpans(delta: string): Piece[] {
    if (typeof delta !== 'string') {
      throw new TypeError(`SentenceSegmenter.push: delta must be a string, got ${typeof delta}`);
    }
    const out: Piece[] = [];
    if (delta === '') return out;
    this.#text += delta;
    // A wait re-reads the text from the scan position (a run of dots, of closers, of spaces):
    // retried on each push while short, else once that text has doubled. The cut is the same
    // (decisions depend only on the text); a long run's cut comes a little later.
    const span = this.#text.length - this.#i;
    if (this.#waitSpan <= RETRY_SPAN || span >= 2 * this.#waitSpan) {
      this.#scan(false, out);
      this.#waitSpan = this.#i < this.#text.length ? this.#text.length - this.#i : 0;
    }
    this.#compact();
    return out;
  }

  flushSpans(): Piece[] {
    const out: Piece[] = [];
    this.#scan(true, out);
    if (this.#pieceStart >= 0) this.#emit(this.#base + this.#text.length, out);
    this.#reset();
    return out;
  }

  #reset(): void {
    this.#text = '';
    this.#base = this.#i = this.#count = this.#words = this.#waitSpan = 0;
    this.#pieceStart = this.#tokenStart = this.#lastClause = this.#lastSpace = -1;
    this.#inToken = this.#tokenHasAlnum = false;
    this.#nesting = CLEAR;
    this.#atLineStart = true;
    this.#lineIndentEnd = 0;
    this.#fence = '';
    this.#fencePiece = false;
    this.#list = null;
    this.#markerEnd = 0;
  }

  /** Drops text before the unfinished piece, keeping one character of look-behind. */
  #compact(): void {
    let keep = this.#i;
    if (this.#pieceStart >= 0) keep = Math.min(keep, this.#pieceStart - this.#base);
    if (this.#inToken) keep = Math.min(keep, Math.max(0, this.#tokenStart - this.#base, this.#i - WORD_MAX));
    keep = Math.max(0, keep - 1);
    if (keep === 0) return;
    this.#text = this.#text.slice(keep);
    this.#base += keep;
    this.#i -= keep;
  }

  #emit(end: number, out: Piece[]): void {
    const t = this.#text;
    const start = this.#pieceStart;
    let e = end;
    while (e > start && /\s/.test(t[e - 1 - this.#base]!)) e--;
    const index = this.#count++;
    out.push({ text: t.slice(start - this.#base, e - this.#base), start, end: e, index, first: index === 0 });
    this.#pieceStart = this.#lastClause = this.#lastSpace = -1;
    this.#words = 0;
    this.#fencePiece = this.#fence !== '';
  }

  /** The piece passed maxChars: cut at its last clause boundary, else its last space, else hard. */
  #cutLong(upto: number, out: Piece[]): void {
    const { maxChars } = this.options;
    while (this.#pieceStart >= 0 && upto - this.#pieceStart > maxChars) {
      const clause = this.#lastClause;
      const space = this.#lastSpace;
      const p = longCutAt(this.#pieceStart, maxChars, clause, space);
      this.#emit(p, out);
      this.#lastClause = clause > p ? clause : -1;
      this.#lastSpace = space > p ? space : -1;
      const rest = this.#text.slice(p - this.#base, upto - this.#base).search(/\S/);
      if (rest >= 0) this.#pieceStart = p + rest;
    }
  }

  /** A line's first list marker starts a list ("1.)", "a.", "• 9."); its next one, a piece ("... 2.) The"). */
  #listMarker(marker: ListMarker, abs: number, out: Piece[]): void {
    const list = this.#list;
    if (abs === this.#lineIndentEnd) {
      this.#list = { style: marker.style, next: marker.value + 1 };
    } else if (list !== null && list.style === marker.style && (marker.value === list.next || marker.value === 0)) {
      if (this.#pieceStart >= 0 && !this.#fencePiece) this.#emit(abs, out);
      list.next = marker.value + 1;
    } else return;
    this.#markerEnd = abs + marker.length;
  }

  /**
   * The terminator at #text[i]: cuts the piece where a sentence ends. Returns where the scan goes
   * on, or undefined to wait for more text.
   */
  #terminator(i: number, final: boolean, out: Piece[]): number | undefined {
    const t = this.#text;
    const base = this.#base;
    const rules = this.#rules;
    const read = readSentenceMark(t, i, this.#nesting, final, rules.terminators);
    if (read === undefined || 'skip' in read) return read?.skip;
    const { runEnd: next, closersEnd: k, next: nx, nextAt, nesting: nest, cutAt } = read; // closers: scanned next
    const spaced = read.spaced || rules.unspacedMarks.has(t[next - 1]!); // "。": no space after it
    if (!spaced || nx === '' || nx === '\n' || isOpen(nest)) return next;
    let ends: boolean | undefined = true;
    if (cutAt === undefined) {
      // The word's last WORD_MAX characters at most: the same whatever compaction kept.
      const word = t.slice(Math.max(this.#tokenStart, base + i - WORD_MAX) - base, i).replace(WORD_LEAD, '');
      const rest = t.slice(nextAt, nextAt + LOOKAHEAD);
      // A full look-ahead window decides as if it were the end: the decision never depends on
      // how much text lies beyond it, so it stays independent of how the text was split.
      const decided = final || rest.length === LOOKAHEAD;
      const [from, to] = [Math.max(this.#pieceStart, base) - base, Math.max(this.#tokenStart, base) - base];
      const before = word === 'I' || /^[ap]\.m$/i.test(word) ? t.slice(from, to) : ''; // only they read it
      const startsLine = this.#tokenStart === this.#lineIndentEnd;
      ends = rules.endsSentence(t.slice(i, next), word, startsLine, nx, rest, decided, before);
      if (ends === undefined) return undefined; // a date after a weekday, a word after "U.S.": wait
    }
    if (!ends) return next;
    const end = base + (cutAt ?? k);
    const length = end - this.#pieceStart;
    const { firstMinChars, minChars, maxChars } = this.options;
    if (length < (this.#count === 0 ? firstMinChars : minChars)) {
      this.#lastClause = end; // short sentence: merged with the next, still a good cut
      return cutAt ?? next;
    }
    if (length > maxChars) return next; // longer: the length cut takes over
    if (cutAt === undefined) this.#nesting = nest;
    this.#emit(end, out);
    this.#inToken = false;
    return cutAt ?? k;
  }

  #scan(final: boolean, out: Piece[]): void {
    const t = this.#text;
    const n = t.length;
    const base = this.#base;
    const { earlyFirstPiece, firstMinWords, maxChars } = this.options;
    let i = this.#i;
    while (i < n) {
      if (this.#atLineStart) {
        const line = readLineStart(t, i, final);
        if (line === undefined) break;
        const { fence, indentEnd: j } = line;
        if (fence !== '' && (this.#fence === '' || this.#fence === fence)) {
          this.#fence = this.#fence === '' ? fence : '';
          this.#fencePiece = true;
        }
        this.#atLineStart = false;
        this.#lineIndentEnd = base + j;
      }
      const c = t[i]!;
      const abs = base + i;
      const inFence = this.#fence !== '';
      if (c === '\n') {
        if (!inFence) {
          if (this.#pieceStart >= 0) this.#emit(abs, out);
          this.#nesting = CLEAR;
          this.#list = null;
        }
        this.#inToken = false;
        this.#atLineStart = true;
        i++;
        continue;
      }
      if (isSpace(c)) {
        this.#inToken = false;
        if (this.#pieceStart >= 0) this.#lastSpace = abs;
        i++;
        continue;
      }
      // Everything up to the next `break` is idempotent: a scan that stops to wait for more text
      // resumes at this same character.
      if (!this.#inToken && !inFence && abs >= this.#markerEnd) {
        const marker = readListMarker(t, i, final);
        if (marker === undefined) break;
        if (marker !== null) this.#listMarker(marker, abs, out);
      }
      if (this.#pieceStart < 0) this.#pieceStart = abs;
      if (!this.#inToken) {
        this.#inToken = true;
        this.#tokenStart = abs;
        this.#tokenHasAlnum = false;
      }
      if (!this.#tokenHasAlnum && isAlnum(c)) {
        this.#tokenHasAlnum = true;
        this.#words++;
      } else if (this.#rules.unspaced && isUnspacedLetter(c)) {
        this.#words++; // no spaces: each Han or kana character counts as a word
      }
      let next = i + 1;
      if (inFence) {
        // no cuts inside a code fence: the normaliser drops the whole block
      } else if (this.#rules.terminators.has(c) && abs >= this.#markerEnd) {
        const after = this.#terminator(i, final, out);
        if (after === undefined) break;
        next = after;
      } else if (
        this.#rules.clauseMarks.has(c) ||
        (c === '-' && i > 0 && isSpace(t[i - 1]!) && this.#tokenStart !== this.#lineIndentEnd)
      ) {
        const boundary = isClauseEnd(t, i, final, this.#nesting, this.#rules.unspacedMarks);
        if (boundary === undefined) break;
        if (boundary) {
          this.#lastClause = abs + 1;
          const early = this.#count === 0 && earlyFirstPiece && this.#words >= firstMinWords;
          if (early && abs + 1 - this.#pieceStart <= maxChars) {
            this.#emit(abs + 1, out);
            this.#inToken = false;
          }
        }
      } else {
        this.#nesting = stepNesting(this.#nesting, c);
      }
      i = next;
      if (!this.#fencePiece && this.#pieceStart >= 0 && base + i - this.#pieceStart > maxChars) {
        this.#cutLong(base + i, out);
      }
    }
    this.#i = i;
  }
}
