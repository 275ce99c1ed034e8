// How a protocol-v1 session (bidi-session.ts) gets a stream, as one policy for its three cases:
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
import { sleep, type RetryPolicy } from './backoff.ts';
import { refusedPastBudget, RetryBudget } from './retry-budget.ts';
import { TtsTransportError } from './types.ts';

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
