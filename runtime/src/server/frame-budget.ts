// How many frames a WebSocket connection may send now: a token bucket that keeps every window of
// one second at most at 90% of the limit (a burst of a tenth of it, then 0.8 of it per second), so
// that frames bunched on their way to AgentCore's counter (by up to 125 ms: 0.1 + 0.8 x 1.125 = 1)
// still count under it. Hand-written: a dozen lines, and the window property is what the tests check.

/** Share of the limit the bucket holds (the burst), and its refill per second. */
const BURST = 0.1;
const RATE = 0.8;

export class FrameBudget {
  readonly #capacity: number;
  readonly #perMs: number;
  #tokens: number;
  #at: number;

  constructor(framesPerSecond: number, now = performance.now()) {
    if (!(framesPerSecond >= 1)) throw new RangeError(`frames per second must be >= 1, got ${framesPerSecond}`);
    this.#capacity = Math.max(1, Math.floor(framesPerSecond * BURST));
    this.#perMs = (framesPerSecond * RATE) / 1000;
    this.#tokens = this.#capacity;
    this.#at = now;
  }

  #refill(now: number): void {
    this.#tokens = Math.min(this.#capacity, this.#tokens + (now - this.#at) * this.#perMs);
    this.#at = now;
  }

  /** Milliseconds until a frame may be sent (0: now). */
  wait(now = performance.now()): number {
    this.#refill(now);
    return this.#tokens >= 1 ? 0 : Math.ceil((1 - this.#tokens) / this.#perMs);
  }

  /** Spends one frame (call only when wait() said 0). */
  take(now = performance.now()): void {
    this.#refill(now);
    this.#tokens -= 1;
  }
}
