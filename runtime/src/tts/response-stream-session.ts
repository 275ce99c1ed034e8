// One session of the response-stream transport: one InvokeEndpointWithResponseStream call per
// utterance, several in flight at once, audio delivered in speak() order (the head utterance
// streams through, later ones are buffered until their turn). There is no server-side audio_end:
// samples and duration are counted here from the bytes, and synthesis_ms is the call's wall time.
// A call that breaks is retried once from the start (`reconnected` names it); a second failure
// ends the session with a TtsTransportError.
import type { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { EventQueue } from './event-queue.ts';
import { checkUtteranceId, newUtteranceId } from './ids.ts';
import { invokeUtterance, UtteranceRefused } from './response-stream-call.ts';
import { TtsTransportError } from './types.ts';
import type { TtsEvent, TtsSession, VoiceSettings } from './types.ts';

export interface ResponseStreamSessionOptions {
  endpointName: string;
  targetVariant?: string;
  /** Calls in flight at once (default 3). */
  maxConcurrentCalls?: number;
}

export type SessionSettings = VoiceSettings & { format: 'pcm_s16le' | 'mulaw'; sample_rate: number };

interface Utterance {
  id: string;
  index: number;
  text: string;
  state: 'queued' | 'running' | 'done' | 'refused';
  buffered: Uint8Array[];
  started: boolean;
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
  readonly #queue = new EventQueue<TtsEvent>();
  readonly #order: Utterance[] = [];
  readonly #client: SageMakerRuntimeClient;
  readonly #options: ResponseStreamSessionOptions;
  readonly #settings: SessionSettings;
  #nextIndex = 0;
  #running = 0;
  #state: 'open' | 'ending' | 'done' | 'closed' | 'failed' = 'open';
  #fatal: TtsTransportError | null = null;
  #endResolve: (() => void) | null = null;
  #endReject: ((error: unknown) => void) | null = null;
  readonly #ended: Promise<void>;

  constructor(client: SageMakerRuntimeClient, options: ResponseStreamSessionOptions, settings: SessionSettings) {
    this.#client = client;
    this.#options = options;
    this.#settings = settings;
    this.ready = Promise.resolve({ sample_rate: settings.sample_rate, format: settings.format, voices: [] });
    this.#ended = new Promise<void>((resolve, reject) => {
      this.#endResolve = resolve;
      this.#endReject = reject;
    });
    this.#ended.catch(() => {});
  }

  speak(text: string, id?: string): string {
    if (this.#fatal) throw this.#fatal;
    if (this.#state !== 'open') throw new Error(`speak() after ${this.#state === 'closed' ? 'close()' : 'end()'}`);
    const utteranceId = id === undefined ? newUtteranceId() : checkUtteranceId(id);
    if (this.#order.some((u) => u.id === utteranceId)) throw new Error(`utterance id ${utteranceId} is already in use`);
    this.#order.push({
      id: utteranceId,
      index: this.#nextIndex++,
      text,
      state: 'queued',
      buffered: [],
      started: false,
      bytes: 0,
      attempts: 0,
      abort: new AbortController(),
      queuedAt: performance.now(),
      startedAt: 0,
      endedAt: 0,
    });
    this.#pump();
    return utteranceId;
  }

  cancel(): Promise<string[]> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    const dropped = this.#order.splice(0);
    for (const u of dropped) u.abort.abort();
    const ids = new Set(dropped.map((u) => u.id));
    this.#queue.discard((event) => event.type !== 'error' && event.type !== 'reconnected' && ids.has(event.id));
    this.#settle();
    return Promise.resolve([...ids]);
  }

  end(): Promise<void> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    if (this.#state === 'closed') return Promise.reject(new Error('end() after close()'));
    if (this.#state === 'open') this.#state = 'ending';
    this.#settle();
    return this.#ended;
  }

  events(): AsyncIterable<TtsEvent> {
    return this.#queue;
  }

  close(): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    const wasDone = this.#state === 'done';
    this.#state = 'closed';
    for (const u of this.#order.splice(0)) u.abort.abort();
    this.#queue.finish();
    if (!wasDone) this.#endReject?.(new Error('session closed before all audio was delivered'));
  }

  #pump(): void {
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
    const bytesPerSample = this.#settings.format === 'mulaw' ? 1 : 2;
    try {
      const request = {
        endpointName: this.#options.endpointName,
        text: u.text,
        settings: this.#settings,
        ...(this.#options.targetVariant && { targetVariant: this.#options.targetVariant }),
      };
      for await (const chunk of invokeUtterance(this.#client, request, bytesPerSample, u.abort.signal)) {
        if (u.abort.signal.aborted) return;
        if (this.#order[0] === u) this.#emitAudio(u, chunk);
        else u.buffered.push(chunk);
      }
      u.state = 'done';
      u.endedAt = performance.now();
    } catch (error) {
      if (u.abort.signal.aborted || this.#state === 'closed' || this.#state === 'failed') return;
      if (error instanceof UtteranceRefused) {
        u.state = 'refused';
        u.refusal = error;
      } else if ((error as TtsTransportError).retryable && u.attempts < 2) {
        // Start this utterance again; whatever of it was delivered is to be dropped.
        u.buffered = [];
        u.started = false;
        u.bytes = 0;
        u.state = 'queued';
        this.#queue.push({ type: 'reconnected', resent: [u.id] });
      } else {
        const e = error as TtsTransportError;
        return this.#fail(
          u.attempts > 1
            ? new TtsTransportError(e.code, `utterance ${u.id} failed again after a retry: ${e.message}`, { cause: e })
            : e,
        );
      }
    } finally {
      this.#running--;
      if (this.#state !== 'closed' && this.#state !== 'failed') {
        this.#settle();
        this.#pump();
      }
    }
  }

  #emitAudio(u: Utterance, chunk: Uint8Array): void {
    if (!u.started) {
      u.started = true;
      this.#queue.push({ type: 'audio_start', id: u.id, index: u.index });
    }
    u.bytes += chunk.byteLength;
    this.#queue.push({ type: 'audio', id: u.id, index: u.index, data: chunk });
  }

  /** Delivers what the head utterances have, in order; finishes the session after end(). */
  #settle(): void {
    for (let head = this.#order[0]; head; head = this.#order[0]) {
      for (const chunk of head.buffered.splice(0)) this.#emitAudio(head, chunk);
      if (head.state === 'refused') {
        this.#queue.push({ type: 'error', id: head.id, code: head.refusal!.code, message: head.refusal!.message });
      } else if (head.state === 'done') {
        if (!head.started) this.#emitAudio(head, new Uint8Array(0));
        const samples = head.bytes / (this.#settings.format === 'mulaw' ? 1 : 2);
        this.#queue.push({
          type: 'audio_end',
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
    if (this.#state === 'ending') {
      this.#state = 'done';
      this.#queue.finish();
      this.#endResolve?.();
    }
  }

  #fail(error: TtsTransportError): void {
    this.#state = 'failed';
    this.#fatal = error;
    for (const u of this.#order.splice(0)) u.abort.abort();
    this.#queue.finish(error);
    this.#endReject?.(error);
  }
}
