// Which voice speaks a language when the caller names only the language, and which language a
// voice speaks (the container's voice list says; for a server without one, Kokoro's convention of
// the id's first letter). Facts and sources: docs/design/livekit-plugin.md#languages-and-voices.
import { blendLanguageVoice, parseVoiceId, VOICE_LETTERS, type VoiceInfo } from '@kokoro-speech/protocol';

const LETTERS = Object.values(VOICE_LETTERS);
/** Each language tag's default voice (protocol's voice-letters.ts; docs/design/languages.md). */
const DEFAULT_VOICES: Readonly<Record<string, string>> = Object.fromEntries(
  LETTERS.map((l) => [l.tag, l.defaultVoice]),
);
const ALIASES: Readonly<Record<string, string>> = { en: 'en-us', fr: 'fr-fr', pt: 'pt-br' };

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
  const id = parseVoiceId(voice);
  return id ? VOICE_LETTERS[id.letter].tag : 'en-us';
}

/** `es` matches es; `en` matches en-us and en-gb; `en-gb` matches only en-gb. */
export function languageMatches(asked: string, spoken: string): boolean {
  const a = asked.toLowerCase();
  const s = spoken.toLowerCase();
  return a === s || (!a.includes('-') && s.split('-')[0] === a);
}
