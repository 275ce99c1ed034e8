// The TTS sessions' retry policy, in one place: the timing (Backoff: exponential backoff with full
// jitter, each delay uniform in 0 to min(maxDelayMs, baseMs x 2^attempt), inside a time budget
// counted from the first failure on a monotonic clock), the two budgets every session has
// (RetryBudget), and how a protocol-v1 session gets a stream (StreamRetrier).
//
// Full jitter, because a refusal usually comes to many callers at once (an instance past capacity
// refuses everyone who arrives in the same second): spread retries land on instances that have
// freed up, or on another instance behind the endpoint's router, instead of in one herd.
// Why and what is documented: docs/design/reconnect-and-splice.md.
import { TtsTransportError } from './types.ts';

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

// ---- The two budgets: refusals before any audio (RetryPolicy.budgetMs, TTS_RETRY_BUDGET_MS) and
// re-opening after a break or a call that got no answer (RetryPolicy.reconnectBudgetMs,
// TTS_RECONNECT_BUDGET_MS). Each tells the policy's onRetry of every retry it grants; both session
// kinds (bidi-session.ts, response-stream-session.ts) use them, so that they count and word alike.

/** A transport given no retry policy: the default retry budget, no hook. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { budgetMs: DEFAULT_RETRY_BUDGET_MS };

export class RetryBudget {
  readonly #backoff: Backoff;
  readonly #onRetry: RetryPolicy['onRetry'];
  /** Says which budget and which variable sets it, for the error once it is spent. */
  readonly note: string;

  private constructor(backoff: Backoff, policy: RetryPolicy, note: string) {
    this.#backoff = backoff;
    this.#onRetry = policy.onRetry;
    this.note = note;
  }

  /** The refusals' budget (RangeError for a bad policy). */
  static refusals(policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryBudget {
    const backoff = new Backoff(policy);
    return new RetryBudget(backoff, policy, `(retry budget ${backoff.budgetMs} ms, TTS_RETRY_BUDGET_MS)`);
  }

  /** The reconnect budget, with the refusals' backoff shape. */
  static reconnects(policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryBudget {
    const backoff = new Backoff({ ...policy, budgetMs: policy.reconnectBudgetMs ?? DEFAULT_RECONNECT_BUDGET_MS });
    return new RetryBudget(backoff, policy, `(reconnect budget ${backoff.budgetMs} ms, TTS_RECONNECT_BUDGET_MS)`);
  }

  /** A failure: the delay before the next try (onRetry is told why), or null once the budget is spent. */
  next(reason: string): number | null {
    const delayMs = this.#backoff.next();
    if (delayMs !== null) this.#onRetry?.({ attempt: this.#backoff.attempts, delayMs, reason });
    return delayMs;
  }

  /** Success: the next failure starts a new budget. */
  reset(): void {
    this.#backoff.reset();
  }

  /** Tries made, the one that failed last included. */
  get tries(): number {
    return this.#backoff.attempts + 1;
  }

  /** Whole ms since the first failure. */
  get elapsedMs(): number {
    return Math.round(this.#backoff.elapsedMs);
  }

  /** "3 times in 1520 ms" */
  get tally(): string {
    return `${this.tries} time${this.tries > 1 ? 's' : ''} in ${this.elapsedMs} ms`;
  }
}

/**
 * The one error of a refusal past the retry budget, whichever session: `refused` says who refused
 * what ("the TTS server refused the session"), then how often, in how long, and the last refusal.
 */
export function refusedPastBudget(refused: string, budget: RetryBudget, last: Error): TtsTransportError {
  return new TtsTransportError('overloaded', `${refused} ${budget.tally} ${budget.note}: ${last.message}`, {
    cause: last,
    retryable: true,
  });
}

// ---- How a protocol-v1 session (bidi-session.ts) gets a stream, one policy for its three cases:
// open(), its first utterance refused, and a stream that broke.
// - A refusal before any audio (the server answers the connect with 503 or an `overloaded` error
//   before `ready`, or refuses the session's first utterance with `overloaded`) is retried with
//   backoff and jitter within the retry budget: each try is a new connection, which behind an
//   endpoint may land on another instance. One budget for all of them, renewed by audio; past it
//   the session fails with an `overloaded` TtsTransportError.
// - A stream that broke is re-opened at once, then with the same backoff until the reconnect
//   budget is spent, so that a container restarting (a deploy, a crash: 1-2 s) or an instance
//   being replaced is ridden out; a failure that retrying cannot cure (credentials, a 4xx) ends
//   the session at once. Mid-answer, once per progress: a second break before an utterance has
//   completed on the new stream ends the session.

const isOverloaded = (error: unknown): error is TtsTransportError =>
  error instanceof TtsTransportError && error.code === 'overloaded';

export interface Retrying {
  /** Refusals (`overloaded`) are retried within the retry budget (nothing of this stream has audio yet). */
  refusals: boolean;
  /** The break being ridden out: failed tries are retried within a reconnect budget of their own. */
  broke?: TtsTransportError;
  /** A refusal in hand (the first utterance's), counted as the first failure. */
  refused?: TtsTransportError;
  /** Aborts the waits (open()'s signal). */
  signal?: AbortSignal;
}

export class StreamRetrier {
  readonly #policy: RetryPolicy;
  /** Closed or failed: no more tries. */
  readonly #stopped: () => boolean;
  /** One budget for all the refusals before audio (connect, first utterance); renewed by audio. */
  readonly #refusals: RetryBudget;
  #heardAudio = false;
  #mayReopen = true;

  constructor(policy: RetryPolicy, stopped: () => boolean) {
    this.#policy = policy;
    this.#stopped = stopped;
    this.#refusals = RetryBudget.refusals(policy);
  }

  /** No audio has arrived on this session yet: a refusal of its first utterance is retried. */
  get beforeAudio(): boolean {
    return !this.#heardAudio;
  }

  audioStarted(): void {
    this.#heardAudio = true;
    this.#refusals.reset();
  }

  /** An utterance completed: progress on this stream, so a later break may be re-opened again. */
  progressed(): void {
    this.#mayReopen = true;
  }

  /** A stream broke mid-answer: whether it may be re-opened (then not again before progress). */
  takeReopen(): boolean {
    const may = this.#mayReopen;
    this.#mayReopen = false;
    return may;
  }

  /** Tries `connect` until it succeeds or the policy gives up; then throws the error to report. */
  async connect<T>(connect: () => Promise<T>, how: Retrying): Promise<T> {
    const reopen = how.broke ? RetryBudget.reconnects(this.#policy) : null;
    let failure: unknown = how.refused;
    for (;;) {
      if (failure === undefined) {
        try {
          return await connect();
        } catch (error) {
          failure = error;
        }
        if (this.#stopped()) throw closedWhileRetrying();
      }
      const delayMs = this.#delayAfter(failure, how, reopen);
      failure = undefined;
      await sleep(delayMs, how.signal);
      if (this.#stopped()) throw closedWhileRetrying();
    }
  }

  /** The wait before the next try, or throws what ends the session. */
  #delayAfter(failure: unknown, how: Retrying, reopen: RetryBudget | null): number {
    let error = failure;
    if (how.refusals && isOverloaded(error)) {
      const delayMs = this.#refusals.next(error.message);
      if (delayMs !== null) return delayMs;
      error = refusedPastBudget('the TTS server refused the session', this.#refusals, error);
    }
    if (!reopen || !how.broke) throw error; // not re-opening a broken stream: not retried
    // Lazily after an idle break nothing pending has audio yet: refusals were retried above first.
    const cause = error instanceof TtsTransportError ? error : how.broke;
    const delayMs = cause.retryable ? reopen.next(`reconnecting: ${cause.message}`) : null;
    if (delayMs !== null) return delayMs;
    const why = cause.retryable ? ` ${reopen.note}` : '';
    throw new TtsTransportError(
      cause.code,
      `stream broke (${how.broke.message}) and reconnecting failed ${reopen.tally}${why}: ${cause.message}`,
      { cause: error, retryable: cause.retryable },
    );
  }
}

function closedWhileRetrying(): TtsTransportError {
  return new TtsTransportError('connection_lost', 'session closed while retrying');
}
