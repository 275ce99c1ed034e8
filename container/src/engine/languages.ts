// Which language a voice speaks and which G2P prepares its text: the first letter of a Kokoro v1.0
// voice id (the letter table is protocol's voice-letters.ts), see docs/design/languages.md.
import { parseVoiceId, VOICE_LETTERS, type VoiceLetter } from '@kokoro-speech/protocol';

/** Kokoro's language letters: a/b English (kokoro-js), e/f/h/i/p espeak-ng, j/z refused. */
export type LanguageCode = VoiceLetter;

/** How a language's text becomes phonemes. */
export type G2pKind = 'kokoro-js' | 'espeak-ng' | 'unavailable';

export interface Language {
  code: LanguageCode;
  /** BCP 47 tag, as the voice list shows it. */
  tag: string;
  /** English name, for messages. */
  name: string;
  g2p: G2pKind;
  /** espeak-ng voice identifier (what phonemizer selects for misaki's language code). */
  espeakVoice?: string;
  /** Why there is no G2P (g2p 'unavailable'). */
  unavailable?: string;
}

const REFUSAL = 'see docs/design/languages.md';

/** How each letter's text becomes phonemes: misaki's language codes (es, fr-fr, hi, it, pt-br)
 *  resolve, through phonemizer's voice selection, to these espeak-ng voices. */
const G2P: Readonly<Record<LanguageCode, Pick<Language, 'g2p' | 'espeakVoice' | 'unavailable'>>> = {
  a: { g2p: 'kokoro-js' },
  b: { g2p: 'kokoro-js' },
  e: { g2p: 'espeak-ng', espeakVoice: 'roa/es' },
  f: { g2p: 'espeak-ng', espeakVoice: 'roa/fr' },
  h: { g2p: 'espeak-ng', espeakVoice: 'inc/hi' },
  i: { g2p: 'espeak-ng', espeakVoice: 'roa/it' },
  p: { g2p: 'espeak-ng', espeakVoice: 'roa/pt-BR' },
  j: {
    g2p: 'unavailable',
    unavailable: `no JavaScript G2P reproduces misaki's Japanese G2P (MeCab readings from the UniDic dictionary); ${REFUSAL}`,
  },
  z: {
    g2p: 'unavailable',
    unavailable: `no JavaScript G2P reproduces misaki's Mandarin G2P (jieba words read by pypinyin's dictionaries, cn2an numbers); ${REFUSAL}`,
  },
};

export const LANGUAGES: Readonly<Record<LanguageCode, Language>> = Object.fromEntries(
  (Object.keys(G2P) as LanguageCode[]).map((code) => {
    const { tag, name } = VOICE_LETTERS[code];
    return [code, { code, tag, name, ...G2P[code] }];
  }),
) as Record<LanguageCode, Language>;

/**
 * The language of a voice: from the id's first letter when the id has Kokoro's form; any other
 * id (a voice a user added under another name) speaks American English, as before.
 */
export function voiceLanguage(voice: string): LanguageCode {
  return parseVoiceId(voice)?.letter ?? (voice.startsWith('b') ? 'b' : 'a');
}

/** Female or Male from the id's second letter (Kokoro-form ids only). */
export const voiceGender = (voice: string): 'Female' | 'Male' | undefined => parseVoiceId(voice)?.gender;

export const languageOf = (voice: string): Language => LANGUAGES[voiceLanguage(voice)];
