// One session of the response-stream transport: one InvokeEndpointWithResponseStream call per
// utterance, several in flight at once, audio delivered in speak() order (the head utterance
// streams through, later ones are buffered until their turn). There is no server-side audio_end:
// samples and duration are counted here from the bytes, and synthesis_ms is the call's wall time.
// A call that breaks is retried once from the start (`reconnected` names it; the session core
// splices its audio so that the caller gets every byte once); a second failure ends the session
// with a TtsTransportError. A call the container refuses (503: admission control) before any of
// its audio is retried with backoff and jitter within the retry budget (retry.ts), not counted
// as a break; past the budget the session fails with `overloaded`. Lifecycle and delivery:
// session-core.ts; the retry budgets: retry.ts. Paused (flow control), it starts no call,
// reads none (HTTP/2's window then stops each call's sender) and delivers nothing.
import type { ErrorCode } from '@kokoro-speech/protocol';
import { KokoroError } from '@kokoro-speech/protocol/errors';
import { DEFAULT_RETRY_POLICY, refusedPastBudget, RetryBudget, type RetryPolicy } from './retry.ts';
import { claimUtteranceId, SessionCore } from './session-core.ts';
import { TtsTransportError } from './types.ts';
import type { TtsEvent, TtsSession, VoiceSettings } from './types.ts';

/** The container refused this utterance (its POST /invocations answered 4xx/5xx). */
export class UtteranceRefused extends KokoroError<ErrorCode> {
  constructor(code: ErrorCode, message: string) {
    super(code, message, { retryable: code === 'overloaded' });
  }
}

/** One utterance's call: its audio in whole samples (the transport's InvokeEndpointWithResponseStream). */
export type UtteranceCall = (
  request: { text: string; settings: VoiceSettings },
  bytesPerSample: number,
  signal: AbortSignal,
) => AsyncIterable<Uint8Array>;

export interface ResponseStreamSessionOptions {
  /** Calls in flight at once (default 3). */
  maxConcurrentCalls?: number;
  /** Refused calls (before any audio) are retried within this budget (default 2000 ms). */
  retry?: RetryPolicy;
}

export type SessionSettings = VoiceSettings & { format: 'pcm_s16le' | 'mulaw' | 'alaw'; sample_rate: number };

interface Utterance {
  id: string;
  index: number;
  text: string;
  state: 'queued' | 'running' | 'waiting' | 'done' | 'refused';
  /** The retry budget of this utterance's refused calls (from the first refusal). */
  refusals?: RetryBudget;
  /** Re-tries of this utterance's calls that got no answer: the reconnect budget. */
  reconnect?: RetryBudget;
  /** Calls of this utterance that broke mid-audio (one is retried). */
  breaks: number;
  buffered: Uint8Array[];
  bytes: number;
  attempts: number;
  abort: AbortController;
  queuedAt: number;
  startedAt: number;
  endedAt: number;
  refusal?: UtteranceRefused;
}

export class ResponseStreamSession implements TtsSession {
  readonly ready: Promise<{ sample_rate: number; format: string; voices: string[] }>;
  readonly #core = new SessionCore();
  readonly #order: Utterance[] = [];
  readonly #call: UtteranceCall;
  readonly #options: ResponseStreamSessionOptions;
  readonly #settings: SessionSettings;
  readonly #retry: RetryPolicy;
  #nextIndex = 0;
  #running = 0;

  constructor(call: UtteranceCall, options: ResponseStreamSessionOptions, settings: SessionSettings) {
    this.#call = call;
    this.#options = options;
    this.#settings = settings;
    this.#retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.ready = Promise.resolve({ sample_rate: settings.sample_rate, format: settings.format, voices: [] });
  }

  speak(text: string, id?: string): string {
    this.#core.checkSpeak();
    const utteranceId = claimUtteranceId(id, (taken) => this.#order.some((u) => u.id === taken));
    this.#order.push({
      id: utteranceId,
      index: this.#nextIndex++,
      text,
      state: 'queued',
      buffered: [],
      bytes: 0,
      attempts: 0,
      breaks: 0,
      abort: new AbortController(),
      queuedAt: performance.now(),
      startedAt: 0,
      endedAt: 0,
    });
    this.#pump();
    return utteranceId;
  }

  cancel(): Promise<string[]> {
    const refused = this.#core.cancelRefusal();
    if (refused) return refused;
    const dropped = this.#order.splice(0);
    for (const u of dropped) u.abort.abort();
    const ids = dropped.map((u) => u.id);
    this.#core.drop(ids);
    this.#settle();
    return Promise.resolve(ids);
  }

  end(): Promise<void> {
    return this.#core.end(() => this.#settle());
  }

  events(): AsyncIterable<TtsEvent> {
    return this.#core.events;
  }

  close(): void {
    if (!this.#core.close()) return;
    for (const u of this.#order.splice(0)) u.abort.abort();
  }

  pause(): void {
    this.#core.pause();
  }

  resume(): void {
    if (!this.#core.resume()) return;
    this.#settle(); // what finished while paused
    this.#pump();
  }

  #pump(): void {
    if (this.#core.paused) return;
    const limit = this.#options.maxConcurrentCalls ?? 3;
    for (const u of this.#order) {
      if (this.#running >= limit) return;
      if (u.state === 'queued') void this.#run(u);
    }
  }

  async #run(u: Utterance): Promise<void> {
    u.state = 'running';
    u.attempts++;
    u.startedAt = performance.now();
    this.#running++;
    const bytesPerSample = this.#settings.format === 'pcm_s16le' ? 2 : 1;
    try {
      const request = { text: u.text, settings: this.#settings };
      for await (const chunk of this.#call(request, bytesPerSample, u.abort.signal)) {
        // A chunk read after pause() waits for resume(): paused, the session delivers nothing more.
        if (this.#core.paused) await this.#core.whenResumed();
        if (u.abort.signal.aborted) return;
        if (this.#order[0] === u) this.#emitAudio(u, chunk);
        else u.buffered.push(chunk);
        if (this.#core.paused) await this.#core.whenResumed();
      }
      u.state = 'done';
      u.endedAt = performance.now();
    } catch (error) {
      if (u.abort.signal.aborted || this.#core.stopped) return;
      if (error instanceof UtteranceRefused) {
        u.state = 'refused';
        u.refusal = error;
      } else if ((error as TtsTransportError).code === 'overloaded' && u.bytes === 0 && u.buffered.length === 0) {
        u.attempts--; // a refusal is not a broken call
        const e = error as TtsTransportError;
        u.refusals ??= RetryBudget.refusals(this.#retry);
        const delayMs = u.refusals.next(e.message);
        if (delayMs === null)
          return this.#fail(refusedPastBudget(`the TTS endpoint refused utterance ${u.id}`, u.refusals, e));
        this.#requeueAfter(u, delayMs);
      } else if ((error as TtsTransportError).retryable && !(u.bytes > 0 && u.breaks > 0)) {
        // Start this utterance again; the core drops what of it was already delivered. A call that
        // broke mid-audio is retried once, at once; a call that got no audio (the container is
        // restarting) is retried with backoff within the reconnect budget.
        const e = error as TtsTransportError;
        let delayMs = 0;
        if (u.bytes > 0) {
          u.breaks++;
          u.reconnect = undefined; // the break starts a new budget
        } else {
          u.reconnect ??= RetryBudget.reconnects(this.#retry);
          const drawn = u.reconnect.next(`reconnecting: ${e.message}`);
          if (drawn === null)
            return this.#fail(
              new TtsTransportError(
                e.code,
                `utterance ${u.id}: no answer for ${u.reconnect.elapsedMs} ms after ${u.reconnect.tries} tries ` +
                  `${u.reconnect.note}: ${e.message}`,
                { cause: e, retryable: true },
              ),
            );
          delayMs = drawn;
        }
        u.buffered = [];
        u.bytes = 0;
        this.#core.resent([u.id]);
        this.#requeueAfter(u, delayMs);
      } else {
        const e = error as TtsTransportError;
        return this.#fail(
          u.breaks > 0
            ? new TtsTransportError(e.code, `utterance ${u.id} failed again after a retry: ${e.message}`, { cause: e })
            : e,
        );
      }
    } finally {
      this.#running--;
      if (!this.#core.stopped) {
        this.#settle();
        this.#pump();
      }
    }
  }

  /** Queues a retried utterance again after its backoff delay (0: on the next tick). */
  #requeueAfter(u: Utterance, delayMs: number): void {
    u.state = 'waiting';
    setTimeout(() => {
      if (u.abort.signal.aborted || this.#core.stopped) return;
      u.state = 'queued';
      this.#pump();
    }, delayMs);
  }

  #emitAudio(u: Utterance, chunk: Uint8Array): void {
    this.#core.audioStart(u.id, u.index);
    u.bytes += chunk.byteLength;
    this.#core.audio(u.id, u.index, chunk);
  }

  /** Delivers what the head utterances have, in order (nothing while paused: resume() does it);
   *  finishes the session after end() once every utterance is delivered. */
  #settle(): void {
    for (let head = this.#order[0]; head && !this.#core.paused; head = this.#order[0]) {
      for (const chunk of head.buffered.splice(0)) this.#emitAudio(head, chunk);
      if (head.state === 'refused') {
        this.#core.error({ id: head.id, code: head.refusal!.code, message: head.refusal!.message });
      } else if (head.state === 'done') {
        if (head.bytes === 0) this.#emitAudio(head, new Uint8Array(0));
        const samples = head.bytes / (this.#settings.format === 'pcm_s16le' ? 2 : 1);
        this.#core.audioEnd({
          id: head.id,
          index: head.index,
          samples,
          duration_ms: (samples / this.#settings.sample_rate) * 1000,
          synthesis_ms: head.endedAt - head.startedAt,
          queue_ms: head.startedAt - head.queuedAt,
        });
      } else {
        return;
      }
      this.#order.shift();
    }
    if (this.#order.length === 0) this.#core.finish();
  }

  #fail(error: TtsTransportError): void {
    if (!this.#core.fail(error)) return;
    for (const u of this.#order.splice(0)) u.abort.abort();
  }
}
