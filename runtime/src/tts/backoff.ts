// Retry timing for the TTS transports: exponential backoff with full jitter (each delay drawn
// uniformly from 0 to min(maxDelayMs, baseMs x 2^attempt)) inside a time budget counted from the
// first failure, on a monotonic clock. One small module so that every retry loop (a refused
// session; re-opening a broken stream mid-answer) shares the same policy and its tests; each loop
// has its own budget.
//
// Full jitter, because a refusal usually comes to many callers at once (an instance past capacity
// refuses everyone who arrives in the same second): spread retries land on instances that have
// freed up, or on another instance behind the endpoint's router, instead of in one herd.

export interface BackoffOptions {
  /** Time retries may take, from the first failure, in ms. 0: no retry. */
  budgetMs: number;
  /** The first delay's upper bound (default 100 ms); doubled per attempt. */
  baseMs?: number;
  /** No delay is drawn above this (default 1000 ms). */
  maxDelayMs?: number;
  /** Uniform in [0, 1) (default Math.random); tests pass a fixed one. */
  random?: () => number;
  /** Monotonic ms (default performance.now). */
  now?: () => number;
}

/** What a transport is given: the budget and the backoff's shape, and a hook per retry. */
export interface RetryPolicy extends BackoffOptions {
  /** The budget for re-opening a stream that broke mid-answer (TTS_RECONNECT_BUDGET_MS; default
   *  5000 ms), with the same backoff; `budgetMs` is the refused sessions'. */
  reconnectBudgetMs?: number;
  /** Called before each wait (logs, the benchmark's retries-per-turn count). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** TTS_RETRY_BUDGET_MS's default. */
export const DEFAULT_RETRY_BUDGET_MS = 2000;

/** TTS_RECONNECT_BUDGET_MS's default: a container restart (1-2 s) with room to spare. */
export const DEFAULT_RECONNECT_BUDGET_MS = 5000;

export class Backoff {
  readonly budgetMs: number;
  readonly #baseMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;
  readonly #now: () => number;
  #startedAt: number | null = null;
  #attempts = 0;

  constructor(options: BackoffOptions) {
    const { budgetMs, baseMs = 100, maxDelayMs = 1000 } = options;
    if (!(budgetMs >= 0 && Number.isFinite(budgetMs)))
      throw new RangeError(`retry budget must be >= 0 ms, not ${budgetMs}`);
    if (!(baseMs > 0 && maxDelayMs >= baseMs))
      throw new RangeError(`backoff needs 0 < baseMs (${baseMs}) <= maxDelayMs (${maxDelayMs})`);
    this.budgetMs = budgetMs;
    this.#baseMs = baseMs;
    this.#maxDelayMs = maxDelayMs;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Retries granted so far. */
  get attempts(): number {
    return this.#attempts;
  }

  /** Ms since the first failure (0 before it). */
  get elapsedMs(): number {
    return this.#startedAt === null ? 0 : this.#now() - this.#startedAt;
  }

  /**
   * A failure happened: the delay before the next attempt, or null when waiting it (and making the
   * attempt) would leave the budget. The budget starts at the first call.
   */
  next(): number | null {
    const now = this.#now();
    this.#startedAt ??= now;
    if (this.budgetMs === 0) return null;
    const cap = Math.min(this.#maxDelayMs, this.#baseMs * 2 ** this.#attempts);
    const delay = Math.round(this.#random() * cap);
    if (now - this.#startedAt + delay > this.budgetMs) return null;
    this.#attempts++;
    return delay;
  }

  /** Success: the next failure starts a new budget. */
  reset(): void {
    this.#startedAt = null;
    this.#attempts = 0;
  }
}

/** Waits `ms`; rejects with the signal's reason if it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
