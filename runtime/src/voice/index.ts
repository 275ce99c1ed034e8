// Speech in on the turn WebSocket: the voice session, its turn-taking, its settings.
export {
  VoiceSession,
  type VoiceEvent,
  type VoiceHost,
  type VoiceSessionSetup,
  type VoiceTurnFacts,
} from './voice-session.ts';
export { DEFAULT_VOICE_OPTIONS, type VoiceOptions } from './voice-options.ts';
export { openVoice, type VoiceConfig } from './open-voice.ts';
