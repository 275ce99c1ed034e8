// Test stand-ins other workspaces' tests use (`@kokoro-speech/runtime/testing`): speech made at
// test time, and the speech-to-text services stood in for at the wire (the OpenAI-compatible
// transcription server and Amazon Transcribe streaming, on loopback).
export { concatPcm, resample, silence, speak, whiteNoise } from './spoken-audio.ts';
export * from './fake-transcription-server.ts';
export * from './fake-transcribe-streaming.ts';
