// Which voice speaks a language when the caller names only the language, and which language a
// voice speaks (the container's voice list says; for a server without one, Kokoro's convention of
// the id's first letter). Facts and sources: docs/design/livekit-plugin.md#languages-and-voices.
import { blendLanguageVoice, type VoiceInfo } from '@kokoro-speech/protocol';

/** Kokoro v1.0's first-listed, best-graded voice per language (docs/design/languages.md). */
const DEFAULT_VOICES: Readonly<Record<string, string>> = {
  'en-us': 'af_heart',
  'en-gb': 'bf_emma',
  es: 'ef_dora',
  'fr-fr': 'ff_siwis',
  hi: 'hf_alpha',
  it: 'if_sara',
  'pt-br': 'pf_dora',
  ja: 'jf_alpha',
  zh: 'zf_xiaobei',
};
const ALIASES: Readonly<Record<string, string>> = { en: 'en-us', fr: 'fr-fr', pt: 'pt-br' };

/** The letter-to-language convention of Kokoro's voice ids (hexgrad/kokoro pipeline.py LANG_CODES). */
const BY_LETTER: Readonly<Record<string, string>> = {
  a: 'en-us',
  b: 'en-gb',
  e: 'es',
  f: 'fr-fr',
  h: 'hi',
  i: 'it',
  p: 'pt-br',
  j: 'ja',
  z: 'zh',
};

export function defaultVoice(language: string): string | undefined {
  const tag = language.toLowerCase();
  return DEFAULT_VOICES[ALIASES[tag] ?? tag];
}

/** The language a voice speaks: the voice list's entry, else the id's letter (other ids: en-us, as the container does). */
export function voiceLanguage(spec: string, info: readonly VoiceInfo[] | undefined): string {
  // A blend speaks its first voice's language, as the container reads it (docs/design/voice-blends.md).
  const voice = info?.some((v) => v.id === spec) ? spec : blendLanguageVoice(spec);
  const listed = info?.find((v) => v.id === voice)?.language;
  if (listed) return listed.toLowerCase();
  const m = /^([abefhijpz])[fm]_[a-z0-9]+$/.exec(voice);
  return m ? BY_LETTER[m[1]!]! : 'en-us';
}

/** `es` matches es; `en` matches en-us and en-gb; `en-gb` matches only en-gb. */
export function languageMatches(asked: string, spoken: string): boolean {
  const a = asked.toLowerCase();
  const s = spoken.toLowerCase();
  return a === s || (!a.includes('-') && s.split('-')[0] === a);
}
