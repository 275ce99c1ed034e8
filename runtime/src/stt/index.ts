// Speech in: the providers behind one interface, the Silero VAD, and the configuration
// (docs/design/voice-in.md).
export * from './types.ts';
export { createSpeechToText } from './create.ts';
export { sttFromEnv, type SttConfig } from './config.ts';
export { SttError } from './errors.ts';
export { SileroVad, SILERO_WINDOW, sileroModelPath, type SileroVadOptions } from './silero-vad.ts';
export { SPEECH_GATE_DEFAULTS, type SpeechGateOptions } from './speech-gate.ts';
export { offlineTranscript } from './offline.ts';
export { transcribeLanguageCode } from './transcribe-language.ts';
export { WHISPER_ONNX_REPO, WHISPER_ONNX_REVISION, WHISPER_ONNX_FILES } from './local-whisper.ts';
