// Word start and end times of one synthesised piece, from the model's per-token durations when the
// export has them, else estimated from token counts (every token taken as equally long).
import type { PieceWord } from './types.ts';

export interface WordTiming {
  /** Offsets into the utterance text. */
  start: number;
  end: number;
  /** Samples from the start of this piece's audio, at the model's rate. */
  startSample: number;
  endSample: number;
}

export interface PieceTimings {
  words: WordTiming[];
  /** True when the model gave no durations (or the word map was approximate). */
  estimated: boolean;
}

/** ONNX Round: to the nearest integer, halves to even. */
export function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
}

/**
 * Frames each token (pads included) lasts, from a durations output: the timestamped Kokoro export
 * gives float predictions before its Round and Clip(min=1); integer outputs pass through the same.
 */
export function framesFromDurations(durations: ArrayLike<number | bigint>): number[] {
  return Array.from(durations, (d) => Math.max(1, roundHalfEven(Number(d))));
}

/**
 * Word times for a piece whose `tokens` tokens (pads excluded) produced `audioSamples` samples.
 * With `frames` (one per token, pads included) the samples per frame are derived from this run
 * (audio length / total frames), never assumed; without, each of the tokens + 2 pads is taken as
 * equally long.
 */
export function pieceWordTimings(
  words: readonly PieceWord[],
  tokens: number,
  audioSamples: number,
  frames: readonly number[] | null,
  approximateMap = false,
): PieceTimings {
  const exact = frames !== null && frames.length === tokens + 2;
  const perToken = exact ? frames : new Array<number>(tokens + 2).fill(1);
  const total = perToken.reduce((s, f) => s + f, 0);
  const samplesPerFrame = total > 0 ? audioSamples / total : 0;
  // cumulative[k] = frames before token k of the piece (so pad 0 comes first).
  const cumulative: number[] = [perToken[0] ?? 0];
  for (let k = 0; k < tokens; k++) cumulative.push(cumulative[k]! + (perToken[k + 1] ?? 0));
  const sampleAt = (token: number) =>
    Math.min(audioSamples, Math.round(cumulative[Math.max(0, Math.min(tokens, token))]! * samplesPerFrame));
  return {
    words: words.map((w) => ({
      start: w.start,
      end: w.end,
      startSample: sampleAt(w.tokenStart),
      endSample: sampleAt(w.tokenEnd),
    })),
    estimated: !exact || approximateMap,
  };
}
