// What every TtsSession shares, whatever carries it (protocol v1 over a channel, or one SageMaker
// call per utterance): the lifecycle (open -> ending -> done, or closed / failed at any time), the
// fatal error and the end() promise, the ordered event queue, and the exactly-once delivery of
// each utterance's audio. A session keeps only its carrier logic and reports what arrives here.
//
// Exactly once: after a broken stream a carrier sends the utterances whose audio was incomplete
// again, from their start. The caller has already received part of such an utterance, so the new
// rendition is spliced in where the old one broke off: its first bytes, as many as were delivered,
// are dropped, and its second audio_start is not repeated. This relies on Kokoro's duration
// prediction being deterministic (the same text, voice and speed give the same number of samples),
// which is engine knowledge and so belongs here, below the pipeline, not in it.
//
// Flow control: a reader that cannot keep up (the caller behind it reads slowly) pauses the
// session; its carrier then stops reading from its stream (the TTS server's sending stops once the
// buffers between fill) and the events queued here stay few. Paused is a state of the session,
// not of one stream: a stream opened while paused (a reconnect) is paused too.
import { randomBytes } from 'node:crypto';
import { EventQueue, type TtsEvent, type TtsTransportError } from './types.ts';

type State = 'open' | 'ending' | 'done' | 'closed' | 'failed';
type AudioEnd = Extract<TtsEvent, { type: 'audio_end' }>;
type ErrorEvent = Extract<TtsEvent, { type: 'error' }>;

interface Delivery {
  started: boolean;
  /** Bytes given to the caller so far. */
  bytes: number;
  /** Bytes of a re-sent rendition still to drop (the caller has them from the first one). */
  skip: number;
  /** Words given to the caller so far, and words of a re-sent rendition still to drop. */
  words: number;
  skipWords: number;
}
type WordsEvent = Extract<TtsEvent, { type: 'words' }>;

export class SessionCore {
  readonly events = new EventQueue<TtsEvent>();
  readonly #end = Promise.withResolvers<void>();
  readonly #delivery = new Map<string, Delivery>();
  #state: State = 'open';
  #fatal: TtsTransportError | null = null;
  /** Settles when the session is resumed (or stops); null while not paused. */
  #resumed: PromiseWithResolvers<void> | null = null;

  constructor() {
    this.#end.promise.catch(() => {}); // nobody may be waiting for end()
  }

  get state(): State {
    return this.#state;
  }

  get fatal(): TtsTransportError | null {
    return this.#fatal;
  }

  /** Closed or failed: the carrier must stop all work. */
  get stopped(): boolean {
    return this.#state === 'closed' || this.#state === 'failed';
  }

  /** The reader asked for no more events for now (see above). */
  get paused(): boolean {
    return this.#resumed !== null;
  }

  /** Returns false when already paused or stopped (nothing to do). */
  pause(): boolean {
    if (this.#resumed || this.stopped) return false;
    this.#resumed = Promise.withResolvers<void>();
    return true;
  }

  /** Returns false when not paused. */
  resume(): boolean {
    const resumed = this.#resumed;
    if (!resumed) return false;
    this.#resumed = null;
    resumed.resolve();
    return true;
  }

  /** Resolves at once when not paused, else once resumed or stopped. */
  whenResumed(): Promise<void> {
    return this.#resumed?.promise ?? Promise.resolve();
  }

  /** Throws unless speak() is allowed now. */
  checkSpeak(): void {
    if (this.#fatal) throw this.#fatal;
    if (this.#state !== 'open') throw new Error(`speak() after ${this.#state === 'closed' ? 'close()' : 'end()'}`);
  }

  /** A failed session's error for cancel(), if any. */
  cancelRefusal(): Promise<never> | null {
    return this.#fatal ? Promise.reject(this.#fatal) : null;
  }

  /**
   * end(): the promise of all audio delivered. `begin` runs once, on the first call while open
   * (the carrier sends its end, or settles at once).
   */
  end(begin: () => void): Promise<void> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    if (this.#state === 'closed') return Promise.reject(new Error('end() after close()'));
    if (this.#state === 'open') {
      this.#state = 'ending';
      begin();
    }
    return this.#end.promise;
  }

  /** All audio delivered after end(): the session is done. Returns false when not ending. */
  finish(): boolean {
    if (this.#state !== 'ending') return false;
    this.#state = 'done';
    this.events.finish();
    this.#end.resolve();
    return true;
  }

  /** close(): returns false when already closed or failed (nothing to release). */
  close(): boolean {
    if (this.stopped) return false;
    const wasDone = this.#state === 'done';
    this.#state = 'closed';
    this.resume();
    this.events.finish();
    if (!wasDone) this.#end.reject(new Error('session closed before all audio was delivered'));
    return true;
  }

  /** A fatal failure: the reader gets `error` after the queued events. False when already stopped. */
  fail(error: TtsTransportError): boolean {
    if (this.stopped) return false;
    this.#state = 'failed';
    this.#fatal = error;
    this.resume();
    this.events.finish(error);
    this.#end.reject(error);
    return true;
  }

  // ---- audio delivery, exactly once per utterance ----

  audioStart(id: string, index: number): void {
    const d = this.#deliveryOf(id);
    if (d.started) return; // a re-sent utterance: the caller already has its start
    d.started = true;
    this.events.push({ type: 'audio_start', id, index });
  }

  audio(id: string, index: number, data: Uint8Array): void {
    const d = this.#deliveryOf(id);
    if (d.skip > 0) {
      const dropped = Math.min(d.skip, data.byteLength);
      d.skip -= dropped;
      data = data.subarray(dropped);
      if (data.byteLength === 0) return;
    }
    d.bytes += data.byteLength;
    this.events.push({ type: 'audio', id, index, data });
  }

  words(event: Omit<WordsEvent, 'type'>): void {
    const d = this.#deliveryOf(event.id);
    const dropped = Math.min(d.skipWords, event.words.length);
    d.skipWords -= dropped;
    const words = event.words.slice(dropped);
    if (words.length === 0) return;
    d.words += words.length;
    this.events.push({ type: 'words', ...event, words });
  }

  audioEnd(event: Omit<AudioEnd, 'type'>): void {
    this.#delivery.delete(event.id);
    this.events.push({ type: 'audio_end', ...event });
  }

  error(event: Omit<ErrorEvent, 'type'>): void {
    if (event.id !== null) this.#delivery.delete(event.id);
    this.events.push({ type: 'error', ...event });
  }

  /** These utterances are being sent again from their start (announced by a `reconnected` event). */
  resent(ids: string[], announce = true): void {
    for (const id of ids) {
      const d = this.#delivery.get(id);
      if (d) {
        d.skip = d.bytes;
        d.skipWords = d.words;
      }
    }
    if (announce) this.events.push({ type: 'reconnected', resent: ids });
  }

  /** Cancel: these utterances are gone, with their events not yet read. */
  drop(ids: Iterable<string>): void {
    const dropped = new Set(ids);
    for (const id of dropped) this.#delivery.delete(id);
    this.events.discard((event) => event.type !== 'error' && event.type !== 'reconnected' && dropped.has(event.id));
  }

  #deliveryOf(id: string): Delivery {
    let d = this.#delivery.get(id);
    if (!d) this.#delivery.set(id, (d = { started: false, bytes: 0, skip: 0, words: 0, skipWords: 0 }));
    return d;
  }
}

// ---- Utterance ids: generated ones are short and unique; given ones must fit protocol v1 (1-128
// chars).

let counter = 0;

export function newUtteranceId(): string {
  counter = (counter + 1) % 1e9;
  return `u${counter}-${randomBytes(4).toString('hex')}`;
}

export function checkUtteranceId(id: string): string {
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) {
    throw new TypeError(`utterance id must be a string of 1 to 128 characters, got ${JSON.stringify(id)}`);
  }
  return id;
}

/** The id of a new utterance of a session: the given one (checked) or a generated one, not in use. */
export function claimUtteranceId(id: string | undefined, inUse: (id: string) => boolean): string {
  const utteranceId = id === undefined ? newUtteranceId() : checkUtteranceId(id);
  if (inUse(utteranceId)) throw new Error(`utterance id ${utteranceId} is already in use`);
  return utteranceId;
}
