// SSML attribute values read into numbers: <break time|strength> and <prosody rate>. The syntax is
// SSML 1.1's (https://www.w3.org/TR/speech-synthesis11/#S3.2.3 for break, #S3.2.4 for prosody);
// the durations of the strengths and the factors of the rate words are the processor's choice
// there, and ours are in docs/design/pronunciation.md.
import { PronunciationError } from './pronunciation-error.ts';

/** Longest pause one <break> makes; longer ones are cut to it (container/README.md). */
export const MAX_BREAK_MS = 10_000;
/**
 * Most pause one text's <break>s may add up to (docs/design/output-bounds-and-api-key.md): six longest breaks.
 * Over it the text is refused (invalid_message), not cut: which pauses to shorten is the caller's call.
 */
export const MAX_PAUSE_TOTAL_MS = 60_000;

export const BREAK_STRENGTH_MS: Record<string, number> = {
  none: 0,
  'x-weak': 100,
  weak: 250,
  medium: 500,
  strong: 750,
  'x-strong': 1000,
};

export const RATE_WORDS: Record<string, number> = {
  'x-slow': 0.5,
  slow: 0.75,
  medium: 1,
  fast: 1.25,
  'x-fast': 1.5,
  default: 1,
};

/** A <break>'s pause in ms (time wins over strength; neither: medium), at most MAX_BREAK_MS. */
export function breakMs(time: string | undefined, strength: string | undefined, where: string): number {
  if (time !== undefined) {
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s)\s*$/.exec(time);
    if (!m) throw new PronunciationError(`${where}: <break time="${time}"> is not a time such as "700ms" or "1.5s"`);
    const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
    return Math.min(MAX_BREAK_MS, Math.round(ms));
  }
  if (strength === undefined) return BREAK_STRENGTH_MS['medium']!;
  const ms = BREAK_STRENGTH_MS[strength];
  if (ms === undefined) {
    throw new PronunciationError(
      `${where}: <break strength="${strength}"> is not one of ${Object.keys(BREAK_STRENGTH_MS).join(', ')}`,
    );
  }
  return ms;
}

/** A <prosody rate> as a factor of the current rate: a word, "80%", "+10%", "-20%" or a number. */
export function rateFactor(rate: string, where: string): number {
  const value = rate.trim();
  const word = RATE_WORDS[value];
  if (word !== undefined) return word;
  let m = /^([+-])(\d+(?:\.\d+)?)%$/.exec(value);
  if (m) return 1 + (m[1] === '-' ? -1 : 1) * (Number(m[2]) / 100);
  m = /^(\d+(?:\.\d+)?)%$/.exec(value);
  if (m) return Number(m[1]) / 100;
  m = /^(\d+(?:\.\d+)?)$/.exec(value);
  if (m) return Number(m[1]);
  throw new PronunciationError(
    `${where}: <prosody rate="${rate}"> is not a rate (${Object.keys(RATE_WORDS).join(', ')}, a percentage such as "80%" or "+10%", or a number)`,
  );
}
