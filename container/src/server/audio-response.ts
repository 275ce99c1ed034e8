// An HTTP audio body written the way a slow or stalled reader cannot exploit: each write waits for
// `drain` when the socket's buffer is full (Node's documented contract for `write()` returning
// false), a compressing encoder is fed in slices with a turn of the event loop between them (so
// other sessions and /ping are not held up by one long encode), and audio left unread past a limit
// ends the response, as a WebSocket session is dropped (docs/design/output-bounds-and-api-key.md).
// What reaches the wire is shaped by a BodyFrames (the audio as it is by default; the OpenAI-style
// routes' SSE events and captioned JSON: speech-body.ts), so every body gets the same pacing.
import type { ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { StreamEncoder } from '../audio/stream-encoder.ts';
import type { UtteranceWord } from '../tts/utterance-sink.ts';

/** Input bytes per slice: 100 ms of 24 kHz s16le, a few ms of mp3/flac/opus encoding. */
export const SLICE_BYTES = 4800;

type Frame = Buffer | string | null;

/** How encoded audio (and its words) becomes the body: what to write for each, in order. */
export interface BodyFrames {
  /** The 200's headers for the audio's; null: nothing goes out before the end (one whole body). */
  head(headers: Record<string, string>): Record<string, string> | null;
  /** `pieceStart`: the first bytes of a piece (or pause) the utterance made. */
  audio(bytes: Buffer, pieceStart: boolean): Frame;
  /** The words of the audio given so far (only bodies that show them have it). */
  words?(words: readonly UtteranceWord[]): Frame;
  /** The last bytes, with the headers when none went out yet. */
  end(): { headers?: Record<string, string>; body: Frame };
  /** After the headers went out: the bytes that report `error` and end the body; null: the body is cut. */
  failure(error: Error): Frame;
}

/** The audio as it is: the body of POST /invocations and of OpenAI's stream_format "audio". */
export const audioFrames: BodyFrames = {
  head: (headers) => headers,
  audio: (bytes) => bytes,
  end: () => ({ body: null }),
  failure: () => null,
};

export interface AudioResponseOptions {
  /** Encodes the s16le audio (mp3, opus, flac, G.711, a volume); none: the bytes go as they are. */
  encoder?: StreamEncoder | undefined;
  /** The body's shape; default audioFrames. */
  frames?: BodyFrames;
  /** Audio queued here plus what the socket holds, past which the reader counts as stalled. */
  maxBufferedBytes: number;
  /** The reader stalled (the response is destroyed): the caller drops the utterance's work. */
  onStalled(bufferedBytes: number): void;
  /** The encoder threw: the caller may fail() the response; if it does not, it is destroyed. */
  onEncodeError(error: unknown): void;
}

export class AudioResponse {
  readonly #res: ServerResponse;
  readonly #options: AudioResponseOptions;
  readonly #frames: BodyFrames;
  readonly #queue: (Buffer | readonly UtteranceWord[])[] = [];
  #queuedBytes = 0;
  #pumping = false;
  #ending = false;
  #done = false;
  /** The encoder threw: nothing more is fed to it. */
  #broken = false;
  /** Set by fail(): written, after the audio queued before it, instead of the encoder's end. */
  #failure: Frame | undefined;
  readonly #finished: Promise<void>;
  #resolveFinished!: () => void;

  constructor(res: ServerResponse, options: AudioResponseOptions) {
    this.#res = res;
    this.#options = options;
    this.#frames = options.frames ?? audioFrames;
    this.#finished = new Promise((resolve) => (this.#resolveFinished = resolve));
    res.once('close', () => this.#stop());
  }

  /** Audio waiting here and in the socket's buffer: what a reader that stopped makes us hold. */
  get bufferedBytes(): number {
    return this.#queuedBytes + this.#res.writableLength;
  }

  /** The audio begins: sends the 200 with `headers` (unless the body goes out whole at the end). */
  start(headers: Record<string, string>): void {
    const head = this.#frames.head(headers);
    if (head && !this.#done) this.#res.writeHead(200, head);
  }

  /** Queues `bytes` for the body; with over maxBufferedBytes still unread the reader is stalled and the response ends. */
  write(bytes: Buffer): void {
    if (this.#done || this.#ending || bytes.length === 0) return;
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

  /** Queues the words of the audio written so far (they follow it into the body). */
  words(words: readonly UtteranceWord[]): void {
    if (this.#done || this.#ending || !this.#frames.words) return;
    this.#queue.push(words);
    void this.#pump();
  }

  /** Ends the body once everything queued is written (and the encoder's last frames); resolves then. */
  end(): Promise<void> {
    this.#ending = true;
    void this.#pump();
    return this.#finished;
  }

  /**
   * A failure: before the headers `answer()` sends the error response; after them the body's
   * failure frame follows the audio queued so far (an SSE `error` event), or the body is cut.
   */
  fail(error: Error, answer: () => void): void {
    if (this.#done || this.#failure !== undefined) return;
    if (!this.#res.headersSent) {
      this.#stop();
      return answer();
    }
    const last = this.#frames.failure(error);
    if (last === null) {
      this.#stop();
      return void this.#res.destroy(error);
    }
    this.#failure = last;
    this.end();
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
        const item = this.#queue.shift();
        if (!item) break;
        if (Buffer.isBuffer(item)) await this.#audio(item);
        else await this.#send(this.#frames.words!(item));
      }
      if (this.#ending && !this.#done && this.#queue.length === 0) this.#finish();
    } finally {
      this.#pumping = false;
    }
  }

  /** One chunk of the utterance's audio: encoded (in slices, a turn apart), framed, written. */
  async #audio(chunk: Buffer): Promise<void> {
    const { encoder } = this.#options;
    // Raw audio goes as it came; only encoding is worth slicing.
    const size = encoder ? SLICE_BYTES : chunk.length;
    let pieceStart = true;
    for (let at = 0; at < chunk.length && !this.#done && !this.#broken; at += size) {
      const slice = chunk.subarray(at, at + size);
      this.#queuedBytes -= slice.length;
      const bytes = this.#encode(() => encoder?.write(slice) ?? slice);
      if (bytes && bytes.length > 0) {
        await this.#send(this.#frames.audio(bytes, pieceStart));
        pieceStart = false;
      }
      // The next slice in a later turn: other sockets' reads and writes run in between.
      if (encoder) await nextTurn();
    }
  }

  #finish(): void {
    const rest =
      this.#failure === undefined && !this.#broken
        ? this.#encode(() => this.#options.encoder?.end() ?? Buffer.alloc(0))
        : null;
    if (this.#done) return; // the encoder failed and the response was destroyed
    if (this.#failure !== undefined) {
      this.#res.end(this.#failure);
      return this.#stop();
    }
    if (rest && rest.length > 0) {
      const frame = this.#frames.audio(rest, false);
      if (frame !== null) this.#res.write(frame);
    }
    const { headers, body } = this.#frames.end();
    if (headers) this.#res.writeHead(200, headers);
    if (body === null) this.#res.end();
    else this.#res.end(body);
    this.#stop();
  }

  #encode(work: () => Buffer): Buffer | null {
    try {
      return work();
    } catch (error) {
      // Nothing more goes to the broken encoder; the caller decides what the client is told.
      this.#broken = true;
      this.#queue.length = 0;
      this.#queuedBytes = 0;
      this.#options.onEncodeError(error);
      if (!this.#done && this.#failure === undefined) {
        this.#stop();
        this.#res.destroy(error as Error);
      }
      return null;
    }
  }

  /** Writes `frame`, then waits for `drain` if the socket's buffer is over its high-water mark. */
  async #send(frame: Frame): Promise<void> {
    if (frame === null || frame.length === 0 || this.#done) return;
    if (this.#res.write(frame)) return;
    // A response that closes instead of draining settles #finished (#stop); an error is a close too.
    await Promise.race([once(this.#res, 'drain').catch(() => {}), this.#finished]);
  }
}
