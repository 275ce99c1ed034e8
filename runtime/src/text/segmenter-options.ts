// Options of SentenceSegmenter: defaults (reasoning in README.md here) and validation.
import { SEGMENTER_LANGUAGES, type SegmenterLanguage } from './segmenter-languages.ts';

export interface SegmenterOptions {
  /** Cut the first piece of an answer early, at a clause boundary. Default true. */
  earlyFirstPiece?: boolean;
  /** Words the first piece needs before an early clause cut. Default 5. */
  firstMinWords?: number;
  /** A first sentence shorter than this many characters is merged with the next. Default 5. */
  firstMinChars?: number;
  /** A later sentence shorter than this many characters is merged with the next. Default 20. */
  minChars?: number;
  /** Longest piece in characters: longer sentences are cut at clause boundaries, then spaces. Default 250. */
  maxChars?: number;
  /** The answer's language (ISO 639-1): its sentence marks and abbreviations. Default 'en'. */
  language?: SegmenterLanguage;
}

export type ResolvedOptions = Readonly<Required<SegmenterOptions>>;

export const SEGMENTER_DEFAULTS: ResolvedOptions = Object.freeze({
  earlyFirstPiece: true,
  firstMinWords: 5,
  firstMinChars: 5,
  minChars: 20,
  maxChars: 250,
  language: 'en',
});

function integer(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`SentenceSegmenter: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

export function resolveSegmenterOptions(options: SegmenterOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('SentenceSegmenter: options must be an object');
  }
  const o = {
    ...SEGMENTER_DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  };
  if (typeof o.earlyFirstPiece !== 'boolean') {
    throw new TypeError(`SentenceSegmenter: earlyFirstPiece must be a boolean, got ${String(o.earlyFirstPiece)}`);
  }
  const maxChars = integer('maxChars', o.maxChars, 20);
  const resolved = {
    earlyFirstPiece: o.earlyFirstPiece,
    firstMinWords: integer('firstMinWords', o.firstMinWords, 1),
    firstMinChars: integer('firstMinChars', o.firstMinChars, 1),
    minChars: integer('minChars', o.minChars, 1),
    maxChars,
    language: o.language,
  };
  if (!(SEGMENTER_LANGUAGES as readonly unknown[]).includes(o.language)) {
    throw new RangeError(
      `SentenceSegmenter: language must be one of ${SEGMENTER_LANGUAGES.join(', ')}, got ${JSON.stringify(o.language)}`,
    );
  }
  if (resolved.minChars > maxChars || resolved.firstMinChars > maxChars) {
    throw new RangeError(`SentenceSegmenter: minChars and firstMinChars must not exceed maxChars (${maxChars})`);
  }
  const unknown = Object.keys(options).filter((k) => !(k in SEGMENTER_DEFAULTS));
  if (unknown.length > 0) throw new TypeError(`SentenceSegmenter: unknown option(s) ${unknown.join(', ')}`);
  return Object.freeze(resolved);
}

/** One piece with its place in the answer's text (offsets count from the last flush). */
export interface Piece {
  /** The piece, without the whitespace around it: `source.slice(start, end)`. */
  text: string;
  start: number;
  end: number;
  /** 0 for the first piece of the answer, then 1, 2, ... */
  index: number;
  first: boolean;
}
