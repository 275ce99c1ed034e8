// The agent's discipline towards a caller's connection (an SSE response or a WebSocket), as the
// container keeps towards its clients (MAX_WS_BUFFERED_BYTES): every write is counted until the
// operating system has taken it. More than CALLER_BUFFER_BYTES waiting = the caller is behind, and
// the turn stops pulling audio from its TTS session (pipeline/turn-session.ts) until it catches up. A
// caller that takes nothing for CALLER_STALL_SECONDS while the turn waits for it (it stopped
// reading, or reads far too slowly) is dropped: its connection is destroyed, which cancels the turn and frees its LLM
// request and TTS session. A turn's slot is released only once its last byte is written or the
// caller is gone (`flushed`).
import type { CallerFlow } from '../pipeline/types.ts';
import type { FlowLimits } from '../config/defaults.ts';

// The limits and their defaults (and why the mark is small): config/defaults.ts.
export { DEFAULT_FLOW_LIMITS, type FlowLimits } from '../config/defaults.ts';

/** The connection as the flow sees it. */
export interface CallerConnection {
  /** Bytes written and not yet taken by the operating system. */
  buffered(): number;
  /** Closed, or failed. */
  gone(): boolean;
  /** Destroys the connection at once (its close cancels what runs for it). */
  drop(): void;
}

export class CallerOutput implements CallerFlow {
  readonly #connection: CallerConnection;
  readonly #limits: FlowLimits;
  readonly #onDrop: (reason: string) => void;
  /** Writes not yet taken by the operating system. */
  #unflushed = 0;
  #lastProgress = performance.now();
  #waiters: { until: () => boolean; resolve: () => void }[] = [];
  #watchdog: NodeJS.Timeout | undefined;
  #dropped = false;

  constructor(connection: CallerConnection, limits: FlowLimits, onDrop: (reason: string) => void) {
    this.#connection = connection;
    this.#limits = limits;
    this.#onDrop = onDrop;
  }

  /** Call before each write; pass the result as the write's callback. */
  written(): (error?: Error | null) => void {
    this.#unflushed++;
    return () => {
      this.#unflushed--;
      this.#lastProgress = performance.now();
      this.#wake();
    };
  }

  get behind(): boolean {
    return !this.#connection.gone() && this.#connection.buffered() > this.#limits.bufferBytes;
  }

  /** Resolves once no more than half the buffer is waiting, or the caller is gone. */
  caughtUp(): Promise<void> {
    return this.#wait(() => this.#connection.buffered() <= this.#limits.bufferBytes / 2);
  }

  /** Resolves once everything written has been taken, or the caller is gone (or was dropped). */
  flushed(): Promise<void> {
    return this.#wait(() => this.#unflushed === 0);
  }

  /** The connection closed: nobody waits for it any more. */
  closed(): void {
    this.#wake();
  }

  /** The caller's connection is closed (it went away, or was dropped). */
  get gone(): boolean {
    return this.#connection.gone();
  }

  /** The caller was dropped for not reading. */
  get dropped(): boolean {
    return this.#dropped;
  }

  #wait(until: () => boolean): Promise<void> {
    if (this.#connection.gone() || until()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    if (this.#waiters.length === 0) this.#lastProgress = performance.now();
    this.#waiters.push({ until, resolve });
    this.#watch();
    return promise;
  }

  /** Settles the waits that are over; a stall drops the caller, which settles them all. */
  #wake(): void {
    const gone = this.#connection.gone();
    this.#waiters = this.#waiters.filter((w) => (gone || w.until() ? (w.resolve(), false) : true));
    if (this.#waiters.length === 0) {
      clearTimeout(this.#watchdog);
      this.#watchdog = undefined;
    }
  }

  #watch(): void {
    if (this.#watchdog) return;
    const check = () => {
      this.#watchdog = undefined;
      this.#wake();
      if (this.#waiters.length === 0) return;
      const idle = performance.now() - this.#lastProgress;
      if (idle >= this.#limits.stallMs) return this.#drop(idle);
      this.#watchdog = setTimeout(check, Math.min(this.#limits.stallMs - idle, 1000) + 1);
    };
    this.#watchdog = setTimeout(check, Math.min(this.#limits.stallMs, 1000));
  }

  #drop(idleMs: number): void {
    this.#dropped = true;
    const waiting = this.#connection.buffered();
    this.#onDrop(
      `caller stopped reading: nothing taken for ${Math.round(idleMs)} ms with ${waiting} bytes waiting (CALLER_STALL_SECONDS)`,
    );
    this.#connection.drop();
    for (const w of this.#waiters.splice(0)) w.resolve();
  }
}
