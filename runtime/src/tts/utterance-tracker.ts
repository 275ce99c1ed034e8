// The utterance bookkeeping of a protocol-v1 session: which utterances await audio (in send order),
// which utterance the next binary frame belongs to, and which cancelled ids to ignore. Reports the
// server's audio messages to the session core with the client's own index.
import type { AudioEndMessage, AudioStartMessage, ErrorMessage, WordsMessage } from '@kokoro-speech/protocol';
import { checkUtteranceId, newUtteranceId } from './ids.ts';
import type { SessionCore } from './session-core.ts';

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
  readonly #core: SessionCore;
  #current: Utterance | null = null;
  #nextIndex = 0;

  constructor(core: SessionCore) {
    this.#core = core;
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
    this.#core.drop(ids);
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
