// Text to phonemes for one language, chosen by the voice's first letter (languages.ts): kokoro-js
// for English (its own normalisation and espeak-ng en, exactly as before), misaki's espeak path for
// e, f, h, i, p (misaki-espeak.ts on espeak-wasm.ts), a refusal for j and z.
import { KokoroError } from '@kokoro-speech/protocol/errors';
import { VOICE_LETTERS } from '@kokoro-speech/protocol';
import { KokoroTTS } from 'kokoro-js';
import { EspeakWasm } from './espeak-wasm.ts';
import { LANGUAGES, type LanguageCode } from './languages.ts';
import { misakiEspeak } from './misaki-espeak.ts';

/** A voice whose language has no G2P here (code unsupported_language; the session goes on). */
export class UnsupportedLanguageError extends KokoroError<'unsupported_language'> {
  constructor(message: string) {
    super('unsupported_language', message, { status: 400 });
  }
}

/** kokoro-js's generate() with the tokenizer and model cut off: it resolves with the phonemes. */
class EnglishPhonemes extends KokoroTTS {
  override async generate_from_ids(ids: unknown): Promise<never> {
    return (ids as { phonemes: string }).phonemes as never;
  }
}
const english = new EnglishPhonemes(null as never, ((phonemes: string) => ({ input_ids: { phonemes } })) as never);

type KokoroVoice = NonNullable<Parameters<KokoroTTS['generate']>[1]>['voice'];

let espeak: Promise<EspeakWasm> | undefined;
/** espeak-ng's wasm, loaded on the first sentence of an espeak language (~150 ms, ~57 MB). */
function loadEspeak(): Promise<EspeakWasm> {
  espeak ??= EspeakWasm.load();
  espeak.catch(() => (espeak = undefined)); // a failed load is tried again on the next sentence
  return espeak;
}

/** The phonemes of `text` in language `code`, as the model's G2P for that language gives them. */
export async function phonemize(text: string, code: LanguageCode): Promise<string> {
  const language = LANGUAGES[code];
  switch (language.g2p) {
    case 'kokoro-js':
      // Any voice of the right language: only its first letter reaches kokoro-js's phonemiser.
      return (await english.generate(text, {
        voice: VOICE_LETTERS[code].defaultVoice as KokoroVoice,
      })) as unknown as string;
    case 'espeak-ng': {
      const engine = await loadEspeak();
      return misakiEspeak(text, (piece) => engine.clauses(piece, language.espeakVoice!));
    }
    case 'unavailable':
      throw new UnsupportedLanguageError(`${language.name} voices cannot speak here: ${language.unavailable}`);
  }
}
