// The TTS session interface every transport implements (direct WebSocket, SageMaker bidirectional
// stream, SageMaker response stream). The agent pipeline depends on this file only.
import type { AudioFormat, ErrorCode, VoiceInfo, VoiceSettings, WordTiming } from '@kokoro-speech/protocol';
import { KokoroError } from '@kokoro-speech/protocol/errors';

export type { VoiceInfo, VoiceSettings, WordTiming };

/** Events of one TTS session, in order. Audio of two utterances never interleaves. */
export type TtsEvent =
  | { type: 'audio_start'; id: string; index: number }
  /** Encoded audio (the session's format and sample rate), in order within its utterance. */
  | { type: 'audio'; id: string; index: number; data: Uint8Array }
  | {
      type: 'audio_end';
      id: string;
      index: number;
      samples: number;
      duration_ms: number;
      synthesis_ms: number;
      queue_ms: number;
    }
  /**
   * Words of the audio delivered just before (one event per model-sized piece): offsets into the
   * utterance's text, times in ms from the utterance's first sample. Only from servers that offer
   * them (protocol v1 `words`); the response-stream transport has none.
   */
  | { type: 'words'; id: string; index: number; words: WordTiming[]; estimated: boolean }
  /** An utterance-level or session-level error from the server; the session goes on. */
  | { type: 'error'; id: string | null; code: ErrorCode | TransportErrorCode; message: string }
  /**
   * The stream broke and was re-opened; these utterances (audio not complete) were sent again. For
   * information only: their audio goes on where it broke off (no second `audio_start`; the session
   * drops what of the new rendition was already delivered), so every byte arrives exactly once.
   */
  | { type: 'reconnected'; resent: string[] };

export type TransportErrorCode = 'connection_lost' | 'model_stream_error' | 'internal_stream_failure';

/** A fatal transport failure (reconnect failed, signature rejected, ...). Carries a stable code.
 *  `overloaded`: the TTS server refused the session (or its first utterance) and the retries
 *  within the retry budget were refused too. */
export class TtsTransportError extends KokoroError<
  TransportErrorCode | 'unauthorized' | 'bad_response' | 'overloaded'
> {
  constructor(code: TtsTransportError['code'], message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(code, message, { cause: options?.cause, retryable: options?.retryable });
  }
}

export interface TtsSession {
  /** The session's sample rate and format, and the server's voices (empty for the response-stream
   *  transport, which has no ready message). Resolved once open() has resolved. */
  readonly ready: Promise<{
    sample_rate: number;
    format: string;
    voices: string[];
    /** What each voice is, from servers that say (added compatibly to protocol v1's ready). */
    voice_info?: VoiceInfo[];
  }>;
  /**
   * Queue one utterance; returns its id (the given one or a generated one). Never waits for
   * earlier audio: utterances are pipelined. Throws after end() or close().
   */
  speak(text: string, id?: string, options?: SpeakOptions): string;
  /** Barge-in: drop everything whose audio is not complete. No event of the dropped utterances
   *  is delivered after this call (queued ones are discarded too); resolves with their ids once
   *  the server confirmed. */
  cancel(): Promise<string[]>;
  /** No more text; resolves when all audio has been delivered (the server's `done`). */
  end(): Promise<void>;
  /** Events in order; the iterator finishes after end() completes or close(). Single consumer. */
  events(): AsyncIterable<TtsEvent>;
  /** Close the connection at once (frees server work). Idempotent. */
  close(): void;
  /**
   * Flow control, for a reader that cannot keep up: while paused the session stops reading its
   * stream (a stream re-opened while paused is paused too, once its ready is read) and delivers no
   * event beyond those queued before pause(), so its queued events stay few and the TTS server's
   * sending stops; text already given is still sent within the session's window. Optional: a
   * transport without it is read as fast as it delivers.
   */
  pause?(): void;
  resume?(): void;
}

export interface SpeakOptions {
  /** W3C trace parent for the server's spans of this utterance; sent only to servers that take it
   *  (protocol v1 `ready.tracing`), dropped otherwise. */
  traceparent?: string;
}

/** Why a session tries to get a stream: its first, after a refusal, or after a break. */
export type StreamTry = 'open' | 'retry' | 'reconnect';

/**
 * Hears a session's streams, for traces and metrics (src/observability): each try to get one, and
 * how it ended (`refused`: the server said overloaded). Optional: transports that have no streams
 * to retry (the response stream) report nothing.
 */
export interface TtsSessionObserver {
  streamTry(why: StreamTry): (outcome: { result: 'ready' | 'refused' | 'failed'; error?: string }) => void;
}

export interface TtsTransport {
  readonly name: 'websocket' | 'sagemaker-bidi' | 'sagemaker-response-stream';
  /** The container formats it can deliver, when not all of them (the response stream: raw audio only). */
  readonly formats?: readonly AudioFormat[];
  /** Open a session with these settings (sent as the first `config` message). */
  open(settings: VoiceSettings, signal?: AbortSignal, observer?: TtsSessionObserver): Promise<TtsSession>;
}

// ---- The queue events() reads: a single-consumer async queue. Producers push events as frames
// arrive, one `for await` reads them in order. Ending is explicit (finish) and a fatal error is
// re-thrown to the reader after the events queued before it. The STT layer's streams use it too.

export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiter: ((result: IteratorResult<T>) => void) | null = null;
  #failWaiter: ((error: unknown) => void) | null = null;
  #finished = false;
  #error: unknown = undefined;
  #iterating = false;

  get finished(): boolean {
    return this.#finished;
  }

  push(item: T): void {
    if (this.#finished) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = this.#failWaiter = null;
      waiter({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  /** No more events; the reader finishes after the queued ones (or throws `error` after them). */
  finish(error?: unknown): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#error = error;
    if (this.#waiter) {
      const waiter = this.#waiter;
      const failWaiter = this.#failWaiter;
      this.#waiter = this.#failWaiter = null;
      if (error === undefined) waiter({ value: undefined, done: true });
      else failWaiter?.(error);
    }
  }

  /** Drop queued events that match (used by cancel so nothing stale is delivered). */
  discard(predicate: (item: T) => boolean): void {
    this.#items = this.#items.filter((item) => !predicate(item));
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#iterating) throw new Error('events() has a single consumer: it is already being iterated');
    this.#iterating = true;
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#finished) {
          if (this.#error !== undefined) {
            const error = this.#error;
            this.#error = undefined;
            return Promise.reject(error);
          }
          return Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => {
          this.#waiter = resolve;
          this.#failWaiter = reject;
        });
      },
      return: () => {
        this.#finished = true;
        this.#items = [];
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
