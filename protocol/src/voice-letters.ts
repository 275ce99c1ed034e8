// Kokoro v1.0's voice letters: the first letter of a voice id names the language it speaks
// (hexgrad/kokoro kokoro/pipeline.py LANG_CODES). One table for the container, the agent and the
// LiveKit plugin: the turn's language, the voice list's BCP 47 tag, the name and the default voice
// (the best overall grade among the letter's voices in hexgrad/kokoro kokoro.js/src/voices.js; on
// a tie, the first in the list's order). docs/design/languages.md.

export type VoiceLetter = 'a' | 'b' | 'e' | 'f' | 'h' | 'i' | 'p' | 'j' | 'z';

export interface LetterLanguage {
  /** ISO 639-1, as a turn names it. */
  language: 'en' | 'es' | 'fr' | 'hi' | 'it' | 'pt' | 'ja' | 'zh';
  /** BCP 47 tag, as the voice list shows it. */
  tag: string;
  /** English name, for messages. */
  name: string;
  defaultVoice: string;
}

/** In Kokoro's order; the first letter of a language is its default (a before b for English). */
export const VOICE_LETTERS: Readonly<Record<VoiceLetter, LetterLanguage>> = {
  a: { language: 'en', tag: 'en-us', name: 'American English', defaultVoice: 'af_heart' },
  b: { language: 'en', tag: 'en-gb', name: 'British English', defaultVoice: 'bf_emma' },
  e: { language: 'es', tag: 'es', name: 'Spanish', defaultVoice: 'ef_dora' },
  f: { language: 'fr', tag: 'fr-fr', name: 'French', defaultVoice: 'ff_siwis' },
  h: { language: 'hi', tag: 'hi', name: 'Hindi', defaultVoice: 'hf_alpha' },
  i: { language: 'it', tag: 'it', name: 'Italian', defaultVoice: 'if_sara' },
  p: { language: 'pt', tag: 'pt-br', name: 'Brazilian Portuguese', defaultVoice: 'pf_dora' },
  j: { language: 'ja', tag: 'ja', name: 'Japanese', defaultVoice: 'jf_alpha' },
  z: { language: 'zh', tag: 'zh', name: 'Mandarin Chinese', defaultVoice: 'zf_xiaobei' },
};

/** A Kokoro voice id: language letter, f or m, underscore, name (af_heart, ef_dora, zm_yunxi). */
const KOKORO_ID = /^([abefhijpz])([fm])_[a-z0-9]+$/;

/** The letter and gender of a Kokoro-form voice id; undefined for any other id. */
export function parseVoiceId(voice: string): { letter: VoiceLetter; gender: 'Female' | 'Male' } | undefined {
  const m = KOKORO_ID.exec(voice);
  if (!m) return undefined;
  return { letter: m[1] as VoiceLetter, gender: m[2] === 'f' ? 'Female' : 'Male' };
}
