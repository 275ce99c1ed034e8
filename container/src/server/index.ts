// The inference server: HTTP + WebSocket front, sessions, and the shared speech service.
export { startKokoroServer } from './app.ts';
export type { KokoroServer, KokoroServerDeps } from './app.ts';
export { SpeechError } from '../tts/errors.ts';
