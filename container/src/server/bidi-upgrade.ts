// The WebSocket upgrade to the bidirectional stream (/invocations-bidirectional-stream): admitted
// (admission-gate.ts) or refused before the handshake, so that a refused session costs one HTTP
// response and no WebSocket; then one BidiSession per socket, up to MAX_SESSIONS.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import type { ServerConfig } from '../config.ts';
import { admitOrRefuse } from './admission-gate.ts';
import { BidiSession } from './bidi-session.ts';
import { bearerCheck, refuseUpgradeUnauthorized } from './api-key.ts';
import { refuseUpgradeWith } from './error-response.ts';
import type { ServerState } from './server-state.ts';

export class BidiUpgrade {
  readonly #state: ServerState;
  readonly #config: ServerConfig;
  readonly #wss: WebSocketServer;
  readonly #sessions = new Set<BidiSession>();
  readonly #authorized: ReturnType<typeof bearerCheck>;

  constructor(state: ServerState, config: ServerConfig) {
    this.#state = state;
    this.#config = config;
    this.#authorized = bearerCheck(config.apiKey);
    // ws would close a text frame of invalid UTF-8 with 1007; the protocol promises an
    // `invalid_message` error and a session that goes on, so client-message.ts checks it instead
    // (with a fatal TextDecoder, for text and binary frames alike).
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: config.maxWsMessageBytes * 4,
      skipUTF8Validation: true,
    });
  }

  /** The HTTP server's `upgrade` listener. */
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0];
    if (this.#authorized && !this.#authorized(req)) return refuseUpgradeUnauthorized(socket);
    if (path !== BIDI_PATH) return refuseUpgrade(socket, 404);
    const { service, closing } = this.#state;
    if (!service || closing) return refuseUpgrade(socket, 503);
    const entry = admitOrRefuse(service, 'session', 'websocket');
    if (!entry.admitted) return refuseUpgradeWith(socket, entry.error);
    socket.once('close', entry.release);
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const max = this.#config.maxSessions;
      if (this.#sessions.size >= max) {
        ws.send(
          JSON.stringify({
            type: 'error',
            id: null,
            code: 'overloaded',
            message: `the server has ${this.#sessions.size} sessions open (MAX_SESSIONS=${max}); retry later`,
            retry_after_s: 1,
          }),
        );
        ws.close(1013, 'too many sessions');
        return;
      }
      const session = new BidiSession(ws, service, randomUUID(), entry);
      this.#sessions.add(session);
      void session.closed.then(() => this.#sessions.delete(session));
    });
  }

  /** Shutdown, once the grace is over: every session drops what is left and closes with 1001. */
  terminateSessions(): void {
    for (const session of this.#sessions) session.terminate();
  }

  /** Shutdown, last: any socket still open is cut. */
  terminateSockets(): void {
    for (const ws of this.#wss.clients) ws.terminate();
  }
}
