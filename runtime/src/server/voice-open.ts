// `{"type":"listen", ...}`: checks the settings as a turn request's (the voice turns are turn
// requests) and the STT's languages, then opens the voice session. Refusals are RequestErrors,
// told to the caller as `error` events; the socket stays open.
import { chooseLanguage, LanguageChoiceError, type ListenMessage, type TurnRequest } from '@kokoro-speech/protocol';
import { RequestError } from './errors.ts';
import type { SpeechToText, VoiceActivityDetector } from '../stt/types.ts';
import { DEFAULT_VOICE_OPTIONS, type VoiceOptions } from '../voice/voice-options.ts';
import { VoiceSession, type VoiceHost } from '../voice/voice-session.ts';

/** Speech in for the agent server (absent: `listen` is refused with `stt_unavailable`). */
export interface VoiceConfig {
  stt: SpeechToText;
  /** A fresh VAD per voice session (its state is the session's); loading it may take a moment. */
  createVad: () => VoiceActivityDetector | Promise<VoiceActivityDetector>;
  options?: Partial<VoiceOptions>;
}

export interface VoiceContext {
  defaultVoice: string;
  maxFrameBytes: number;
  /** The turn runner's check of a turn request (format over this transport, voice and language). */
  validate: (request: TurnRequest) => void;
}

/** The turn request of each voice turn, less its prompt. */
export type VoiceSettings = Omit<ListenMessage, 'type' | 'input'>;

export function openVoice(
  config: VoiceConfig | undefined,
  listen: ListenMessage,
  host: VoiceHost,
  context: VoiceContext,
): { session: VoiceSession; settings: VoiceSettings } {
  if (!config) throw new RequestError(503, 'stt_unavailable', 'this agent has no speech-to-text (STT_PROVIDER)');
  const { type: _type, input = { format: 'pcm_s16le', sample_rate: 16_000 }, ...settings } = listen;
  context.validate({ ...settings, prompt: '.' });
  let language;
  try {
    language = chooseLanguage(settings, context.defaultVoice).language;
  } catch (error) {
    if (error instanceof LanguageChoiceError) throw new RequestError(400, error.code, error.message);
    throw error;
  }
  const { stt } = config;
  if (!stt.languages.includes(language))
    throw new RequestError(
      400,
      'unsupported_language',
      `the speech-to-text (${stt.name}) does not hear ${language}; it hears ${stt.languages.join(', ')}`,
    );
  const session = new VoiceSession(host, {
    stt,
    vad: Promise.resolve().then(() => config.createVad()),
    options: { ...DEFAULT_VOICE_OPTIONS, ...config.options },
    input,
    language,
    voice: settings.voice,
    maxFrameBytes: context.maxFrameBytes,
  });
  return { session, settings };
}
