// A turn's voice, language and audio settings, chosen before it starts (protocol chooseLanguage),
// and the voice checked once the TTS session is ready: the server's voice list decides whether a
// voice or blend exists (protocol voiceProblem), and its voice info names the language spoken.
import { chooseLanguage, voiceProblem, type SpokenLanguage, type TurnRequest } from '@kokoro-speech/protocol';
import type { TtsSession, VoiceSettings } from '../tts/types.ts';
import type { TurnFailure, VoiceDefaults } from './types.ts';

export interface TurnVoice {
  /** The answer's language: the voice's (the server validated the pair). */
  language: SpokenLanguage;
  settings: Required<VoiceSettings>;
}

/** The request's voice and settings, the defaults filling what it leaves out. */
export function chooseTurnVoice(request: TurnRequest, defaults: VoiceDefaults): TurnVoice {
  let chosen: { voice: string; language: SpokenLanguage };
  try {
    chosen = chooseLanguage(request, defaults.voice);
  } catch {
    // Not validated (a direct runTurn caller): the voice speaks, the container refuses what it cannot.
    chosen = { voice: request.voice ?? defaults.voice, language: 'en' };
  }
  const settings: Required<VoiceSettings> = {
    voice: chosen.voice,
    speed: request.speed ?? defaults.speed,
    // Opus is made here from PCM: the TTS session always sends PCM for it.
    format: request.format === 'opus' ? 'pcm_s16le' : (request.format ?? defaults.format),
    sample_rate: request.sample_rate ?? defaults.sample_rate,
  };
  return { language: chosen.language, settings };
}

/** What a ready session says of the voice: the language it speaks (if told), and why it cannot speak it (if so). */
export function sessionVoice(
  voice: string,
  { voices, voice_info }: Awaited<TtsSession['ready']>,
): { language: string | undefined; problem: TurnFailure | null } {
  const language = voice_info?.find((v) => v.id === voice)?.language;
  const problem = voices.length > 0 ? voiceProblem(voice, voices) : null;
  return {
    language,
    problem: problem && { code: problem.code, message: `${problem.message}; available: ${voices.join(', ')}` },
  };
}
