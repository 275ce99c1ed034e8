// The utterance bookkeeping of a protocol-v1 session: which utterances await audio (in send order),
// which utterance the next binary frame belongs to, and which cancelled ids to ignore. Turns the
// server's audio messages into TtsEvents carrying the client's own index.
import type { AudioEndMessage, AudioStartMessage, ErrorMessage } from '@kokoro-speech/protocol';
import type { EventQueue } from './event-queue.ts';
import { checkUtteranceId, newUtteranceId } from './ids.ts';
import type { TtsEvent } from './types.ts';

export interface Utterance {
  id: string;
  index: number;
  text: string;
}

export class UtteranceTracker {
  /** Utterances sent whose audio is not complete, in send order. */
  readonly pending = new Map<string, Utterance>();
  /** Cancelled ids whose late frames must be ignored until the server confirms the cancel. */
  readonly #dropped = new Set<string>();
  readonly #queue: EventQueue<TtsEvent>;
  #current: Utterance | null = null;
  #nextIndex = 0;

  constructor(queue: EventQueue<TtsEvent>) {
    this.#queue = queue;
  }

  add(text: string, id?: string): Utterance {
    const utteranceId = id === undefined ? newUtteranceId() : checkUtteranceId(id);
    if (this.pending.has(utteranceId)) throw new Error(`utterance id ${utteranceId} is already in use`);
    const utterance = { id: utteranceId, index: this.#nextIndex++, text };
    this.pending.set(utteranceId, utterance);
    return utterance;
  }

  /** Cancel: every pending utterance is dropped, with its events not yet read. Returns the ids. */
  dropAll(): string[] {
    const ids = [...this.pending.keys()];
    for (const id of ids) this.#dropped.add(id);
    this.pending.clear();
    this.#current = null;
    const dropped = new Set(ids);
    this.#queue.discard((event) => event.type !== 'error' && event.type !== 'reconnected' && dropped.has(event.id));
    return ids;
  }

  /** The server confirmed the cancel: no frame of these ids can arrive any more. */
  forget(ids: string[]): void {
    for (const id of ids) this.#dropped.delete(id);
  }

  /** A new stream: nothing is mid-utterance and the old server's late frames cannot arrive. */
  newStream(): void {
    this.#current = null;
    this.#dropped.clear();
  }

  audio(data: Uint8Array): void {
    if (this.#current) this.#queue.push({ type: 'audio', id: this.#current.id, index: this.#current.index, data });
  }

  audioStart(message: AudioStartMessage): void {
    this.#current = this.pending.get(message.id) ?? null;
    if (this.#current) this.#queue.push({ type: 'audio_start', id: message.id, index: this.#current.index });
  }

  /** Returns whether an utterance was completed (progress on this stream). */
  audioEnd(message: AudioEndMessage): boolean {
    const utterance = this.pending.get(message.id);
    this.#current = null;
    if (!utterance) return false;
    this.pending.delete(message.id);
    const { samples, duration_ms, synthesis_ms, queue_ms } = message;
    this.#queue.push({
      type: 'audio_end',
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
    this.#queue.push({ type: 'error', id: message.id, code: message.code, message: message.message });
  }
}
