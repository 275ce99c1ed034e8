// The two retry budgets every TTS session has, and what it says when one is spent: refusals before
// any audio (RetryPolicy.budgetMs, TTS_RETRY_BUDGET_MS) and re-opening after a break or a call
// that got no answer (RetryPolicy.reconnectBudgetMs, TTS_RECONNECT_BUDGET_MS). Each is a Backoff
// (backoff.ts) that tells the policy's onRetry of every retry it grants. Used by both session
// kinds (bidi-session.ts, response-stream-session.ts), so that they count and word alike.
import { Backoff, DEFAULT_RECONNECT_BUDGET_MS, DEFAULT_RETRY_BUDGET_MS, type RetryPolicy } from './backoff.ts';
import { TtsTransportError } from './types.ts';

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
