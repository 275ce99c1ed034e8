// Which language a voice speaks and which G2P prepares its text: the first letter of a Kokoro v1.0
// voice id (hexgrad/kokoro's kokoro/pipeline.py LANG_CODES), see docs/design/languages.md.

/** Kokoro's language letters: a/b English (kokoro-js), e/f/h/i/p espeak-ng, j/z refused. */
export type LanguageCode = 'a' | 'b' | 'e' | 'f' | 'h' | 'i' | 'p' | 'j' | 'z';

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

export const LANGUAGES: Readonly<Record<LanguageCode, Language>> = {
  a: { code: 'a', tag: 'en-us', name: 'American English', g2p: 'kokoro-js' },
  b: { code: 'b', tag: 'en-gb', name: 'British English', g2p: 'kokoro-js' },
  // misaki's language codes (es, fr-fr, hi, it, pt-br) resolve, through phonemizer's voice
  // selection, to these espeak-ng voices.
  e: { code: 'e', tag: 'es', name: 'Spanish', g2p: 'espeak-ng', espeakVoice: 'roa/es' },
  f: { code: 'f', tag: 'fr-fr', name: 'French', g2p: 'espeak-ng', espeakVoice: 'roa/fr' },
  h: { code: 'h', tag: 'hi', name: 'Hindi', g2p: 'espeak-ng', espeakVoice: 'inc/hi' },
  i: { code: 'i', tag: 'it', name: 'Italian', g2p: 'espeak-ng', espeakVoice: 'roa/it' },
  p: { code: 'p', tag: 'pt-br', name: 'Brazilian Portuguese', g2p: 'espeak-ng', espeakVoice: 'roa/pt-BR' },
  j: {
    code: 'j',
    tag: 'ja',
    name: 'Japanese',
    g2p: 'unavailable',
    unavailable: `no JavaScript G2P reproduces misaki's Japanese G2P (MeCab readings from the UniDic dictionary); ${REFUSAL}`,
  },
  z: {
    code: 'z',
    tag: 'zh',
    name: 'Mandarin Chinese',
    g2p: 'unavailable',
    unavailable: `no JavaScript G2P reproduces misaki's Mandarin G2P (jieba words read by pypinyin's dictionaries, cn2an numbers); ${REFUSAL}`,
  },
};

/** A Kokoro voice id: language letter, f or m, underscore, name (af_heart, ef_dora, zm_yunxi). */
const KOKORO_ID = /^([abefhijpz])([fm])_[a-z0-9]+$/;

/**
 * The language of a voice: from the id's first letter when the id has Kokoro's form; any other
 * id (a voice a user added under another name) speaks American English, as before.
 */
export function voiceLanguage(voice: string): LanguageCode {
  const m = KOKORO_ID.exec(voice);
  if (m) return m[1] as LanguageCode;
  return voice.startsWith('b') ? 'b' : 'a';
}

/** Female or Male from the id's second letter (Kokoro-form ids only). */
export function voiceGender(voice: string): 'Female' | 'Male' | undefined {
  const m = KOKORO_ID.exec(voice);
  if (!m) return undefined;
  return m[2] === 'f' ? 'Female' : 'Male';
}

export const languageOf = (voice: string): Language => LANGUAGES[voiceLanguage(voice)];
