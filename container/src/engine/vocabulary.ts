// Every phoneme string a G2P hands the model is checked against Kokoro's vocabulary: a symbol the
// model has no token for is an error that names it, never a silent drop. Only what carries no sound
// of its own is dropped, by the rule below (docs/design/languages.md, "Kokoro's vocabulary").
import { KokoroError } from '@kokoro-speech/protocol/errors';

/**
 * Left in phoneme strings by the G2Ps, not in the vocabulary, and dropped when tokenising (as
 * Kokoro's own pipeline drops every symbol without an id): text punctuation that kokoro-js and
 * phonemizer keep (¡ ¿ « » [ ] { }) and combining marks that only refine the phoneme before them,
 * which is kept (U+0329 syllabic, U+032A dental).
 */
export const DROPPED_SYMBOLS: ReadonlySet<string> = new Set([
  '¡',
  '¿',
  '«',
  '»',
  '[',
  ']',
  '{',
  '}',
  '\u0329',
  '\u032a',
]);

/** A phoneme the model cannot say (code unspeakable_text: the utterance fails, the session goes on). */
export class UnspeakableTextError extends KokoroError<'unspeakable_text'> {
  constructor(message: string) {
    super('unspeakable_text', message, { status: 422 });
  }
}

const codePoint = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Throws naming the first symbol of `phonemes` that is neither in `vocab` nor a dropped symbol;
 * `language` and `text` are for the message.
 */
export function checkVocabulary(
  phonemes: string,
  vocab: { has(symbol: string): boolean },
  language: string,
  text: string,
): void {
  for (const ch of phonemes) {
    if (vocab.has(ch) || DROPPED_SYMBOLS.has(ch)) continue;
    const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    throw new UnspeakableTextError(
      `the ${language} G2P gave the phoneme "${ch}" (${codePoint(ch)}), which Kokoro's vocabulary does not have, ` +
        `for ${JSON.stringify(shown)}; phonemes: ${phonemes}`,
    );
  }
}
