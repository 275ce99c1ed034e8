// The utterance bookkeeping of a protocol-v1 session: which utterances await audio (in send order),
// which utterance the next binary frame belongs to, which cancelled ids to ignore, and the cancels
// waiting for the server's confirmation. Reports the server's audio messages to the session core
// with the client's own index.
import type { AudioEndMessage, AudioStartMessage, ErrorMessage, WordsMessage } from '@kokoro-speech/protocol';
import { claimUtteranceId, type SessionCore } from './session-core.ts';
import type { TtsTransportError } from './types.ts';

export interface Utterance {
  id: string;
  index: number;
  text: string;
  /** Its trace parent for the server (sent where the server takes one, again after a reconnect). */
  traceparent?: string;
}

export class UtteranceTracker {
  /** Utterances sent whose audio is not complete, in send order. */
  readonly pending = new Map<string, Utterance>();
  /** Cancelled ids whose late frames must be ignored until the server confirms the cancel. */
  readonly #dropped = new Set<string>();
  /** Cancels sent, in order, until the server's `cancelled` of each. */
  readonly #cancels: Array<{ ids: string[]; done: PromiseWithResolvers<string[]> }> = [];
  readonly #core: SessionCore;
  #current: Utterance | null = null;
  #nextIndex = 0;

  constructor(core: SessionCore) {
    this.#core = core;
  }

  add(text: string, id?: string, traceparent?: string): Utterance {
    const claimed = claimUtteranceId(id, (taken) => this.pending.has(taken));
    const utterance = { id: claimed, index: this.#nextIndex++, text, ...(traceparent ? { traceparent } : {}) };
    this.pending.set(utterance.id, utterance);
    return utterance;
  }

  /** Cancel: every pending utterance is dropped, with its events not yet read. Returns the ids. */
  dropAll(): string[] {
    const ids = [...this.pending.keys()];
    for (const id of ids) this.#dropped.add(id);
    this.pending.clear();
    this.#current = null;
    this.#core.drop(ids);
    return ids;
  }

  /** A cancel of `ids` went to the server: resolves with them once it confirms. */
  awaitCancelled(ids: string[]): Promise<string[]> {
    const done = Promise.withResolvers<string[]>();
    done.promise.catch(() => {}); // rejected when the session fails, whether or not anyone waits
    this.#cancels.push({ ids, done });
    return done.promise;
  }

  /** A cancel is waiting for the server's confirmation. */
  get cancelling(): boolean {
    return this.#cancels.length > 0;
  }

  /** The server's `cancelled`: no frame of that cancel's ids can arrive any more. */
  cancelled(): void {
    const cancel = this.#cancels.shift();
    if (!cancel) return;
    for (const id of cancel.ids) this.#dropped.delete(id);
    cancel.done.resolve(cancel.ids);
  }

  /** No confirmation will come (closed, a new stream): the cancels are complete, or failed with `error`. */
  settleCancels(error?: TtsTransportError): void {
    for (const { ids, done } of this.#cancels.splice(0)) {
      if (error) done.reject(error);
      else done.resolve(ids);
    }
  }

  /** A new stream: nothing is mid-utterance, the old server's late frames cannot arrive, and the
   *  old server session is gone with everything it had queued (cancels are complete). */
  newStream(): void {
    this.settleCancels();
    this.#current = null;
    this.#dropped.clear();
  }

  audio(data: Uint8Array): void {
    if (this.#current) this.#core.audio(this.#current.id, this.#current.index, data);
  }

  audioStart(message: AudioStartMessage): void {
    this.#current = this.pending.get(message.id) ?? null;
    if (this.#current) this.#core.audioStart(message.id, this.#current.index);
  }

  words(message: WordsMessage): void {
    const utterance = this.pending.get(message.id);
    if (!utterance) return; // cancelled, or not ours
    this.#core.words({ id: message.id, index: utterance.index, words: message.words, estimated: message.estimated });
  }

  /** Returns whether an utterance was completed (progress on this stream). */
  audioEnd(message: AudioEndMessage): boolean {
    const utterance = this.pending.get(message.id);
    this.#current = null;
    if (!utterance) return false;
    this.pending.delete(message.id);
    const { samples, duration_ms, synthesis_ms, queue_ms } = message;
    this.#core.audioEnd({
      id: message.id,
      index: utterance.index,
      samples,
      duration_ms,
      synthesis_ms,
      queue_ms,
    });
    return true;
  }

  error(message: ErrorMessage): void {
    if (message.id !== null) {
      if (this.#dropped.has(message.id)) return;
      this.pending.delete(message.id);
      if (this.#current?.id === message.id) this.#current = null;
    }
    this.#core.error({ id: message.id, code: message.code, message: message.message });
  }
}
