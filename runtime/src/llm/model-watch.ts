// Timeouts that fit speech, for every provider at once: one watch over a Strands agent's stream
// events (the agent loop all providers share). The caller is waiting in silence while the model
// has not written, so two bounds apply while the model is being called (never while a tool runs:
// tools have their own limits, src/tools):
//   - first token: from the start of the answer, or from the end of the tools, to the model's
//     first content (text or a tool call). It spans everything the clients do before that: the
//     openai client's and the AWS SDK's retries and Strands' throttling backoff all fit in it;
//   - idle: between two pieces of content of one model call (a stream that stalls mid-answer).
// Any content resets the idle bound, so a slow but alive model (a token every few seconds) is
// not cut off. When a bound passes, the watch aborts the agent's invocation with an `llm_timeout`
// LlmError; what the model had written is still spoken by the turn.
import { LlmError } from './errors.ts';

export interface LlmTimeouts {
  /** Longest wait for the model's first content of a call, in ms. */
  firstTokenMs: number;
  /** Longest silence between two pieces of content of one call, in ms. */
  idleMs: number;
}

/** A caller waits this long at most for an answer to start (LLM_FIRST_TOKEN_SECONDS). */
export const DEFAULT_LLM_TIMEOUTS: LlmTimeouts = { firstTokenMs: 20_000, idleMs: 15_000 };

type StreamEvent = { type: string };

/** Content of the answer: a text, tool-input or reasoning delta, or the start of a tool call. */
function isContent(event: StreamEvent): boolean {
  if (event.type !== 'modelStreamUpdateEvent') return false;
  const inner = (event as unknown as { event: { type: string } }).event;
  return inner.type === 'modelContentBlockDeltaEvent' || inner.type === 'modelContentBlockStartEvent';
}

export class ModelWatch {
  readonly #provider: string;
  readonly #timeouts: LlmTimeouts;
  readonly #onTimeout: (error: LlmError) => void;
  #timer: NodeJS.Timeout | undefined;
  /** Content of the current model call has arrived (the idle bound applies, not first-token). */
  #writing = false;
  #fired: LlmError | undefined;

  /** Starts watching at once (the answer starts now); `onTimeout` aborts the invocation. */
  constructor(provider: string, timeouts: LlmTimeouts, onTimeout: (error: LlmError) => void) {
    this.#provider = provider;
    this.#timeouts = timeouts;
    this.#onTimeout = onTimeout;
    this.#waitForFirst();
  }

  /** The timeout that ended the invocation, if one did. */
  get fired(): LlmError | undefined {
    return this.#fired;
  }

  /** Every stream event of the agent, in order. */
  see(event: StreamEvent): void {
    if (this.#fired) return;
    if (isContent(event)) {
      this.#writing = true;
      return this.#arm(this.#timeouts.idleMs, 'idle');
    }
    switch (event.type) {
      case 'beforeModelCallEvent':
        // A retry of the same call keeps the bound already running (backoff included).
        if (this.#timer === undefined) this.#waitForFirst();
        return;
      case 'modelMessageEvent': // the call is complete: what follows is tools or the end
      case 'beforeToolsEvent':
        return this.#disarm();
      case 'afterToolsEvent': // the model is called again with the results
        return this.#waitForFirst();
    }
  }

  stop(): void {
    this.#disarm();
  }

  #waitForFirst(): void {
    this.#writing = false;
    this.#arm(this.#timeouts.firstTokenMs, 'first');
  }

  #disarm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number, kind: 'first' | 'idle'): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const seconds = Math.round(ms / 100) / 10;
      const message =
        kind === 'first' || !this.#writing
          ? `${this.#provider} LLM did not start its answer within ${seconds} s (LLM_FIRST_TOKEN_SECONDS)`
          : `${this.#provider} LLM stopped writing for ${seconds} s in the middle of its answer (LLM_IDLE_SECONDS)`;
      this.#fired = new LlmError('llm_timeout', message);
      this.#onTimeout(this.#fired);
    }, ms);
  }
}
