// The languages of a turn (ISO 639-1), the voices that speak them and the rule that joins a turn's
// `language` and `voice` (docs/contracts/turn.md, "Language"; docs/design/languages.md).
import { blendLanguageVoice } from './voice-blend.ts';
import { parseVoiceId, VOICE_LETTERS, type LetterLanguage } from './voice-letters.ts';

/** Every language Kokoro-82M v1.0 has voices for, as a turn names it. */
export const TURN_LANGUAGES = [
  'en',
  'es',
  'fr',
  'hi',
  'it',
  'pt',
  'ja',
  'zh',
] as const satisfies readonly LetterLanguage['language'][];
export type TurnLanguage = (typeof TURN_LANGUAGES)[number];

/** The languages this deployment speaks: the container refuses Japanese and Mandarin (no faithful G2P). */
export const SPOKEN_LANGUAGES = ['en', 'es', 'fr', 'hi', 'it', 'pt'] as const satisfies readonly TurnLanguage[];
export type SpokenLanguage = (typeof SPOKEN_LANGUAGES)[number];

export const LANGUAGE_NAMES: Readonly<Record<TurnLanguage, string>> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  hi: 'Hindi',
  it: 'Italian',
  pt: 'Brazilian Portuguese',
  ja: 'Japanese',
  zh: 'Mandarin Chinese',
};

/** A language's voice when a turn names the language and no voice: its first letter's default voice
 *  (voice-letters.ts). English: af_heart (A). */
export const DEFAULT_VOICES: Readonly<Record<TurnLanguage, string>> = Object.fromEntries(
  TURN_LANGUAGES.map((l) => [l, Object.values(VOICE_LETTERS).find((x) => x.language === l)!.defaultVoice]),
) as Record<TurnLanguage, string>;

/** Why a language is not spoken (the container's `unsupported_language`, said before the turn starts). */
export const UNSPOKEN_REASONS: Readonly<Partial<Record<TurnLanguage, string>>> = {
  ja: "no JavaScript G2P reproduces misaki's Japanese G2P (MeCab readings from the UniDic dictionary)",
  zh: "no JavaScript G2P reproduces misaki's Mandarin G2P (jieba words read by pypinyin's dictionaries)",
};

/**
 * The language a voice speaks: the first letter of a Kokoro voice id (of a blend: of its first
 * voice, as Kokoro-FastAPI reads it); any other id (a voice a user added under another name)
 * speaks English, as the container reads it.
 */
export function voiceLanguage(voice: string): TurnLanguage {
  const id = parseVoiceId(blendLanguageVoice(voice));
  return id ? VOICE_LETTERS[id.letter].language : 'en';
}

export const isSpoken = (language: TurnLanguage): language is SpokenLanguage =>
  (SPOKEN_LANGUAGES as readonly string[]).includes(language);

/** A turn's language and voice could not be joined: `code` is the error the agent answers with (400). */
export class LanguageChoiceError extends Error {
  readonly code: 'invalid_request' | 'unsupported_language';
  constructor(code: 'invalid_request' | 'unsupported_language', message: string) {
    super(message);
    this.name = 'LanguageChoiceError';
    this.code = code;
  }
}

const spokenList = (): string => SPOKEN_LANGUAGES.map((l) => `${l} (${LANGUAGE_NAMES[l]})`).join(', ');

export function unspokenMessage(language: TurnLanguage, what: string): string {
  return (
    `${what} is ${LANGUAGE_NAMES[language]}, which this deployment does not speak: ` +
    `${UNSPOKEN_REASONS[language] ?? 'no G2P'} (docs/design/languages.md). Spoken: ${spokenList()}`
  );
}

/**
 * A turn's voice and language. Rules (docs/contracts/turn.md): a voice speaks its own language;
 * a `language` without a `voice` speaks with the agent's default voice if that voice speaks it,
 * else with the language's default voice; a `voice` and a `language` that disagree are refused
 * (400 invalid_request: which one to honour is the caller's choice to make); Japanese and Mandarin
 * are refused up front (400 unsupported_language, naming why).
 */
export function chooseLanguage(
  request: { voice?: string | undefined; language?: TurnLanguage | undefined },
  defaultVoice: string,
): { voice: string; language: SpokenLanguage } {
  const { language } = request;
  let voice = request.voice;
  if (voice !== undefined && language !== undefined && voiceLanguage(voice) !== language) {
    throw new LanguageChoiceError(
      'invalid_request',
      `voice ${JSON.stringify(voice)} speaks ${voiceLanguage(voice)} (${LANGUAGE_NAMES[voiceLanguage(voice)]}), ` +
        `not language ${JSON.stringify(language)}: name one of them, or a ${LANGUAGE_NAMES[language]} voice ` +
        `(${DEFAULT_VOICES[language]} is its default)`,
    );
  }
  if (voice === undefined) {
    voice =
      language === undefined || voiceLanguage(defaultVoice) === language ? defaultVoice : DEFAULT_VOICES[language];
  }
  const spoken = voiceLanguage(voice);
  if (!isSpoken(spoken)) {
    const what =
      language === undefined ? `voice ${JSON.stringify(voice)}'s language` : `language ${JSON.stringify(language)}`;
    throw new LanguageChoiceError('unsupported_language', unspokenMessage(spoken, what));
  }
  return { voice, language: spoken };
}
