// Pronunciation problems in a request (markup, SSML, phonemes): 400 invalid_message, naming what
// and where. The lexicon's own problems are refused at start-up instead (lexicon.ts).
import { KokoroError } from '@kokoro-speech/protocol/errors';

export class PronunciationError extends KokoroError<'invalid_message'> {
  constructor(message: string) {
    super('invalid_message', message, { status: 400 });
  }
}

const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first symbol of `phonemes` that Kokoro's vocabulary lacks, described, or undefined. */
export function unknownSymbol(phonemes: string, symbols: ReadonlySet<string>): string | undefined {
  for (const ch of phonemes) if (!symbols.has(ch)) return `"${ch}" (${codePoint(ch)})`;
  return undefined;
}

/** Throws naming the symbol and `where` when `phonemes` has one Kokoro cannot say (no check without symbols). */
export function checkPhonemes(phonemes: string, symbols: ReadonlySet<string> | undefined, where: string): void {
  if (phonemes.trim() === '') throw new PronunciationError(`${where}: the phonemes are empty`);
  if (!symbols) return;
  const bad = unknownSymbol(phonemes, symbols);
  if (bad) {
    throw new PronunciationError(
      `${where}: the phoneme ${bad} is not in Kokoro's vocabulary (see GET /v1/phonemize for the phonemes Kokoro uses)`,
    );
  }
}
