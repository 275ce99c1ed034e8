// A script (script.ts) into model-sized pieces: each text part cut into sentences (then halves
// when a sentence overflows the model), each pause a piece of its own with no tokens. A sentence
// with spans fixed by the caller is phonemised run by run: the plain runs by the language's G2P,
// the fixed spans as given (phonemes) or from their replacement text (say), joined with a space
// where the text has one, so that each fixed span is one word of the word map.
import type { Script, SpanOverride } from './script.ts';
import { halveSpan, sentenceSpans, type Span } from './split.ts';
import type { PieceWord, PreparedPiece } from './types.ts';
import { MAX_PIECE_TOKENS } from './types.ts';

/** What the worker offers for one language: plain text to a piece, a piece's word map, tokenising. */
export interface PrepTools {
  /** Phonemes (checked against the vocabulary) and tokens of a plain text. */
  prepareOne(text: string): Promise<PreparedPiece>;
  /** The piece with its word map; `start`: where piece.text starts in the script's text. */
  withWords(piece: PreparedPiece, start: number): Promise<PreparedPiece>;
  tokenize(phonemes: string): number[];
  /** Map words to tokens (false: pieces carry no words). */
  wordMaps: boolean;
  /** The language's BCP 47 tag, for sentence rules. */
  locale: string;
}

export async function prepareScript(script: Script, tools: PrepTools): Promise<PreparedPiece[]> {
  const out: PreparedPiece[] = [];
  const visit = async (part: Span, rate: number): Promise<void> => {
    const fixed = overridesIn(script.overrides, part);
    // A fixed span that began in the half before (a halving cut through it) was spoken there.
    const skip = script.overrides.reduce((at, o) => (o.start < part.start ? Math.max(at, o.end) : at), part.start);
    const plain = fixed.length === 0 && skip === part.start;
    const piece = plain ? await tools.prepareOne(part.text) : await composed(script.text, part, fixed, tools, skip);
    if (piece.tokenIds.length > MAX_PIECE_TOKENS && part.text.length >= 2) {
      for (const half of halveSpan(part)) await visit(half, rate);
      return;
    }
    if (piece.tokenIds.length === 0) return;
    const paced = rate === 1 ? piece : { ...piece, rate };
    const tokenIds = piece.tokenIds.slice(0, MAX_PIECE_TOKENS);
    if (!tools.wordMaps) return void out.push({ ...paced, tokenIds, words: undefined, offset: undefined });
    const mapped = plain ? await tools.withWords(paced, part.start) : paced;
    out.push({ ...mapped, tokenIds, words: mapped.words!.map((w) => clip(w, tokenIds.length)) });
  };
  for (const part of script.parts) {
    if (part.kind === 'pause') {
      if (part.ms > 0) out.push({ text: '', phonemes: '', tokenIds: [], pauseMs: part.ms });
      continue;
    }
    const body = script.text.slice(part.start, part.end);
    const sentences = sentenceSpans(body, tools.locale).map((s) => ({ text: s.text, start: part.start + s.start }));
    for (const sentence of joinedOverFixedSpans(sentences, script)) await visit(sentence, part.rate);
  }
  return out;
}

/** Sentences with no cut inside a fixed span ("[Dr. Kokoro](/.../)" is one word, whatever ICU says). */
function joinedOverFixedSpans(sentences: Span[], script: Script): Span[] {
  const out: Span[] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last && script.overrides.some((o) => o.start < s.start && o.end > s.start && o.start >= last.start)) {
      out[out.length - 1] = { start: last.start, text: script.text.slice(last.start, s.start + s.text.length) };
    } else out.push(s);
  }
  return out;
}

/** The overrides that start inside `span`, cut at its end (a halving may cut through a phrase). */
function overridesIn(all: readonly SpanOverride[], span: Span): SpanOverride[] {
  const end = span.start + span.text.length;
  return all.filter((o) => o.start >= span.start && o.start < end).map((o) => ({ ...o, end: Math.min(o.end, end) }));
}

interface Run {
  phonemes: string;
  start: number;
  end: number;
  /** Words with tokens counted from the run's first phoneme. */
  words: PieceWord[];
}

async function composed(
  text: string,
  span: Span,
  fixed: SpanOverride[],
  tools: PrepTools,
  from = span.start,
): Promise<PreparedPiece> {
  const runs: Run[] = [];
  const plain = async (from: number, to: number): Promise<void> => {
    const raw = text.slice(from, to);
    const trimmed = raw.trim();
    if (!trimmed) return;
    const start = from + raw.indexOf(trimmed);
    const piece = await tools.prepareOne(trimmed);
    if (!piece.phonemes) return;
    const words = tools.wordMaps ? ((await tools.withWords(piece, start)).words ?? []) : [];
    runs.push({ phonemes: piece.phonemes, start, end: start + trimmed.length, words });
  };
  let cursor = from;
  for (const o of fixed) {
    await plain(cursor, o.start);
    const phonemes = o.phonemes ?? (o.say ? (await tools.prepareOne(o.say)).phonemes : '');
    const n = tools.tokenize(phonemes).length;
    if (phonemes)
      runs.push({
        phonemes,
        start: o.start,
        end: o.end,
        words: [{ start: o.start, end: o.end, tokenStart: 0, tokenEnd: n }],
      });
    cursor = o.end;
  }
  await plain(cursor, span.start + span.text.length);

  let phonemes = '';
  const words: PieceWord[] = [];
  let previousEnd = -1;
  for (const run of runs) {
    if (phonemes && /\s/.test(text.slice(previousEnd, run.start))) phonemes += ' ';
    const before = phonemes ? tools.tokenize(phonemes).length : 0;
    phonemes += run.phonemes;
    for (const w of run.words) words.push({ ...w, tokenStart: w.tokenStart + before, tokenEnd: w.tokenEnd + before });
    previousEnd = run.end;
  }
  return { text: span.text, phonemes, tokenIds: tools.tokenize(phonemes), offset: span.start, words };
}

const clip = <W extends { tokenStart: number; tokenEnd: number }>(w: W, n: number): W => ({
  ...w,
  tokenStart: Math.min(w.tokenStart, n),
  tokenEnd: Math.min(w.tokenEnd, n),
});
