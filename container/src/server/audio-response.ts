// An HTTP audio body written the way a slow or stalled reader cannot exploit: each write waits for
// `drain` when the socket's buffer is full (Node's documented contract for `write()` returning
// false), a compressing encoder is fed in slices with a turn of the event loop between them (so
// other sessions and /ping are not held up by one long encode), and audio left unread past a limit
// ends the response, as a WebSocket session is dropped (docs/design/output-bounds-and-api-key.md).
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StreamEncoder } from '../audio/stream-encoder.ts';

/** Input bytes per slice: 100 ms of 24 kHz s16le, a few ms of mp3/flac/opus encoding. */
export const SLICE_BYTES = 4800;

export interface AudioResponseOptions {
  /** Compresses the s16le audio (the OpenAI route's mp3, opus, flac); none: the bytes go as they are. */
  encoder?: StreamEncoder | undefined;
  /** Audio queued here plus what the socket holds, past which the reader counts as stalled. */
  maxBufferedBytes: number;
  /** The reader stalled (the response is destroyed): the caller drops the utterance's work. */
  onStalled(bufferedBytes: number): void;
  /** The encoder threw (the response is destroyed). */
  onEncodeError(error: unknown): void;
}

export class AudioResponse {
  readonly #res: ServerResponse;
  readonly #options: AudioResponseOptions;
  readonly #queue: Buffer[] = [];
  #queuedBytes = 0;
  #pumping = false;
  #ending = false;
  #done = false;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  constructor(res: ServerResponse, options: AudioResponseOptions) {
    this.#res = res;
    this.#options = options;
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
    res.once('close', () => this.#stop());
  }

  /** Audio waiting here and in the socket's buffer: what a reader that stopped makes us hold. */
  get bufferedBytes(): number {
    return this.#queuedBytes + this.#res.writableLength;
  }

  /** Queues `bytes` for the body; with over maxBufferedBytes still unread the reader is stalled and the response ends. */
  write(bytes: Buffer): void {
    if (this.#done || bytes.length === 0) return;
    // Judged on what is still unread before this chunk (one long pause, 10 s is 480 KB, or piece
    // on its own does not make a reader stalled: what it can hold is the limit plus one chunk),
    // and only while the socket is full: audio still waiting for the encoder is our backlog, not
    // the reader's.
    const buffered = this.bufferedBytes;
    if (this.#res.writableNeedDrain && buffered > this.#options.maxBufferedBytes) {
      this.#stop();
      this.#res.destroy();
      this.#options.onStalled(buffered);
      return;
    }
    this.#queue.push(bytes);
    this.#queuedBytes += bytes.length;
    void this.#pump();
  }

  /** Ends the body once everything queued is written (and the encoder's last frames); resolves then. */
  end(): Promise<void> {
    this.#ending = true;
    void this.#pump();
    return this.#finished;
  }

  /** Drops whatever is queued (the response is abandoned); idempotent. */
  close(): void {
    this.#stop();
  }

  #stop(): void {
    if (this.#done) return;
    this.#done = true;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#options.encoder?.close();
    this.#resolveFinished();
  }

  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (!this.#done) {
        const chunk = this.#queue.shift();
        if (!chunk) break;
        // Raw audio goes as it came; only encoding is worth slicing.
        const size = this.#options.encoder ? SLICE_BYTES : chunk.length;
        for (let at = 0; at < chunk.length && !this.#done; at += size) {
          const slice = chunk.subarray(at, at + size);
          this.#queuedBytes -= slice.length;
          await this.#send(this.#encode(() => this.#options.encoder?.write(slice) ?? slice));
          // The next slice in a later turn: other sockets' reads and writes run in between.
          if (this.#options.encoder) await nextTurn();
        }
      }
      if (this.#ending && !this.#done && this.#queue.length === 0) {
        const rest = this.#encode(() => this.#options.encoder?.end() ?? Buffer.alloc(0));
        if (rest && rest.length > 0) this.#res.write(rest);
        if (!this.#done) {
          this.#res.end();
          this.#stop();
        }
      }
    } finally {
      this.#pumping = false;
    }
  }

  #encode(work: () => Buffer): Buffer | null {
    try {
      return work();
    } catch (error) {
      this.#stop();
      this.#res.destroy(error as Error);
      this.#options.onEncodeError(error);
      return null;
    }
  }

  /** Writes `bytes`, then waits for `drain` if the socket's buffer is over its high-water mark. */
  async #send(bytes: Buffer | null): Promise<void> {
    if (!bytes || bytes.length === 0 || this.#done) return;
    if (this.#res.write(bytes)) return;
    // A response that closes instead of draining settles #finished (#stop); an error is a close too.
    await Promise.race([once(this.#res, 'drain').catch(() => {}), this.#finished]);
  }
}
