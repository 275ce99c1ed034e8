// Test stand-ins other workspaces' tests use (`@kokoro-speech/runtime/testing`): speech made at
// test time and the OpenAI-compatible transcription server on loopback.
export { concatPcm, resample, silence, speak, whiteNoise } from './spoken-audio.ts';
export {
  startFakeTranscriptionServer,
  type FakeTranscriptionServer,
  type TranscriptionReply,
  type TranscriptionRequest,
} from './fake-transcription-server.ts';
