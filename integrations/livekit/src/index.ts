// Public API of @kokoro-speech/livekit: Kokoro TTS for LiveKit Agents.
export { TTS } from './tts.ts';
export { SynthesizeStream } from './synthesize-stream.ts';
export { ChunkedStream } from './chunked-stream.ts';
export type { TTSOptions } from './options.ts';
export { InputEndedError, KokoroTtsError } from './errors.ts';
