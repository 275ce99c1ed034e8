// What the HTTP routes and the WebSocket upgrade read of the server's life (app.ts sets it).
import type { SpeechService } from '../tts/speech-service.ts';

export interface ServerState {
  /** Set once the model is loaded and warmed up (/ping turns 200). */
  service: SpeechService | undefined;
  /** Set by close(): no new sessions, /ping turns 503. */
  closing: boolean;
  /** Wall-clock start (ms), the `created` of GET /v1/models. */
  readonly startedAt: number;
}
