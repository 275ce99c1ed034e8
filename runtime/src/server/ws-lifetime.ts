// How long a caller's WebSocket may live, as AgentCore allows (docs/design/agentcore-contract.md#limits):
// a stream lasts at most 60 minutes, and a session with no message for the idle session timeout
// (900 s by default) is ended. The connection ends first, on its own terms: MAX_STREAM_SECONDS
// after it opened (`stream_limit`), or WS_IDLE_SECONDS after the last message from the caller with
// no turn running (`session_idle`). ws-session.ts says it to the caller and closes the socket.
import type { StreamLimits } from '../config/defaults.ts';

export type WsEnding = 'stream_limit' | 'session_idle';

/** What the caller is told when its connection ends so. */
export function endingMessage(code: WsEnding, limits: StreamLimits): string {
  return code === 'stream_limit'
    ? `this connection reached its time limit (MAX_STREAM_SECONDS=${limits.maxStreamMs / 1000}, inside AgentCore's 60-minute streaming limit); reconnect with the same session id to go on`
    : `no message for WS_IDLE_SECONDS=${limits.wsIdleMs / 1000} (inside AgentCore's idle session timeout); reconnect with the same session id to go on`;
}

export class WsLifetime {
  readonly #limits: StreamLimits;
  readonly #onEnd: (code: WsEnding) => void;
  readonly #deadline: number;
  readonly #streamTimer: NodeJS.Timeout;
  #idleTimer: NodeJS.Timeout | undefined;
  #turns = 0;

  constructor(limits: StreamLimits, onEnd: (code: WsEnding) => void, now = performance.now()) {
    this.#limits = limits;
    this.#onEnd = onEnd;
    this.#deadline = now + limits.maxStreamMs;
    this.#streamTimer = setTimeout(() => this.#end('stream_limit'), limits.maxStreamMs);
    this.#armIdle();
  }

  /** How long the stream has left, in ms (a turn fails with `stream_limit` then). */
  remainingMs(now = performance.now()): number {
    return Math.max(0, this.#deadline - now);
  }

  /** A message from the caller: the idle clock starts again. */
  message(): void {
    if (this.#turns === 0) this.#armIdle();
  }

  /** A turn runs: the connection is not idle until it is over. */
  turnStarted(): void {
    this.#turns++;
    clearTimeout(this.#idleTimer);
  }

  turnEnded(): void {
    this.#turns = Math.max(0, this.#turns - 1);
    if (this.#turns === 0) this.#armIdle();
  }

  /** The socket closed: no more timers. */
  close(): void {
    clearTimeout(this.#streamTimer);
    clearTimeout(this.#idleTimer);
  }

  #armIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#end('session_idle'), this.#limits.wsIdleMs);
  }

  #end(code: WsEnding): void {
    this.close();
    this.#onEnd(code);
  }
}
