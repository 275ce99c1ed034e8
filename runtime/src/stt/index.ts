// Speech in: the providers behind one interface, the Silero VAD, and the configuration
// (docs/design/voice-in.md).
export * from './types.ts';
export { createSpeechToText, type SttMakers } from './create.ts';
export { sttFromEnv, type SttConfig } from './config.ts';
export { SttError } from './errors.ts';
export { openUtteranceStream, type UtteranceLimits, type TranscribeUtterance } from './utterance-stream.ts';
export { SileroVad, SILERO_WINDOW, sileroModelPath, type SileroVadOptions } from './silero-vad.ts';
export { SPEECH_GATE_DEFAULTS, type SpeechGateOptions } from './speech-gate.ts';
export { offlineTranscript } from './offline.ts';
export { transcribeLanguageCode } from './transcribe-language.ts';
