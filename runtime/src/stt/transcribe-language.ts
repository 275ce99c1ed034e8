// The turn's language as Amazon Transcribe streaming's LanguageCode. English picks its accent from
// the voice: Kokoro's b*_ voices (bf_, bm_) are British, so the customer talking to one is taken to
// be too (en-GB); every other English voice gets en-US. Each code is one the streaming API takes
// (docs/design/voice-in.md#transcribe: the supported-languages page and the SDK's LanguageCode).
import type { TurnLanguage } from '@kokoro-speech/protocol';

export const TRANSCRIBE_LANGUAGE_CODES = {
  en: 'en-US',
  es: 'es-US',
  fr: 'fr-FR',
  hi: 'hi-IN',
  it: 'it-IT',
  pt: 'pt-BR',
  ja: 'ja-JP',
  zh: 'zh-CN',
} as const satisfies Record<TurnLanguage, string>;

export type TranscribeLanguageCode = (typeof TRANSCRIBE_LANGUAGE_CODES)[TurnLanguage] | 'en-GB';

export function transcribeLanguageCode(language: TurnLanguage, voice?: string): TranscribeLanguageCode {
  // A blend (`bf_emma(2)+af_sky(1)`) takes its first voice's accent.
  if (language === 'en' && voice && /^b[fm]_/.test(voice.trim())) return 'en-GB';
  return TRANSCRIBE_LANGUAGE_CODES[language];
}

/** Languages written without spaces between words (the stable prefix is joined without them). */
export const UNSPACED_LANGUAGES: ReadonlySet<TurnLanguage> = new Set(['ja', 'zh']);
