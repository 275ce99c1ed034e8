// The stream side of a protocol-v1 session (bidi-session.ts), whatever carries it:
// - Channel: the message channel a transport opens (a direct WebSocket, websocket-transport.ts, or
//   a SageMaker bidirectional stream, sagemaker-bidi-transport.ts); both carry whole protocol
//   messages: text = JSON, binary = audio.
// - StreamLink: one stream on its channel. Connects, sends `config` and waits for the server's
//   `ready`, bounded (a peer that never says ready is no protocol-v1 container); a refusal before
//   ready (`overloaded`; the server closes next) or a break rejects that wait. Once the session
//   leaves a link (closed, broken, refused, timed out), nothing of its channel reaches the session
//   any more: a late message of an old stream cannot count.
// - SendWindow: what of the text went out on the current stream (what a reconnect re-sends).
// - observedTries: the tries to get a stream, as an observer (traces, metrics) hears them.
import type { ClientMessage, ReadyMessage, VoiceSettings } from '@kokoro-speech/protocol';
import { TtsTransportError, type StreamTry, type TtsSessionObserver } from './types.ts';

export interface ChannelHandlers {
  /** One whole message from the container: a string for a text frame, bytes for a binary frame. */
  onMessage(data: string | Uint8Array): void;
  /** The channel ended or failed without close() having been called. Called at most once. */
  onBroken(error: TtsTransportError): void;
}

export interface Channel {
  send(message: ClientMessage): void;
  /** Close at once (the server frees the session's work). Idempotent; onBroken is not called. */
  close(): void;
  /** Stop reading from the stream (flow control: the sender stops once the buffers between fill);
   *  messages already read may still be handed on. */
  pause?(): void;
  resume?(): void;
}

/** Connects a new channel. Rejects with a TtsTransportError when the connection cannot be made. */
export type ChannelOpener = (handlers: ChannelHandlers, signal?: AbortSignal) => Promise<Channel>;

export interface LinkOptions {
  settings: VoiceSettings;
  readyTimeoutMs: number;
  /** Whether the reader is behind: a stream opened then starts paused (once its ready is read). */
  paused: () => boolean;
  signal?: AbortSignal;
}

export class StreamLink {
  #channel: Channel | null = null;
  #listening = true;
  /** Settled by ready, a refusal, a break or the timeout; null once settled. */
  #ready: PromiseWithResolvers<ReadyMessage> | null = Promise.withResolvers<ReadyMessage>();
  /** A refusal that came before the opener returned. */
  #refused: TtsTransportError | null = null;

  /** Its messages and its break still reach the session. */
  get listening(): boolean {
    return this.#listening;
  }

  get awaitingReady(): boolean {
    return this.#ready !== null;
  }

  /** Connects and resolves with the server's ready; `handlers` hear the channel while listening. */
  async open(opener: ChannelOpener, handlers: ChannelHandlers, options: LinkOptions): Promise<ReadyMessage> {
    const ready = this.#ready!;
    ready.promise.catch(() => {}); // settled by a message or a break; awaited below
    const channel = await opener(
      {
        onMessage: (data) => {
          if (this.#listening) handlers.onMessage(data);
        },
        onBroken: (error) => {
          if (this.#listening) handlers.onBroken(error);
        },
      },
      options.signal,
    );
    if (!this.#listening) {
      channel.close(); // closed while connecting, or refused before the opener returned
      throw this.#refused ?? new TtsTransportError('connection_lost', 'session closed while connecting');
    }
    this.#channel = channel;
    channel.send({ type: 'config', ...options.settings });
    const timer = setTimeout(() => {
      if (this.#ready !== ready) return;
      this.#ready = null;
      this.close();
      ready.reject(
        new TtsTransportError(
          'bad_response',
          `no ready message within ${options.readyTimeoutMs} ms: is this a protocol v1 Kokoro container?`,
        ),
      );
    }, options.readyTimeoutMs);
    let message: ReadyMessage;
    try {
      message = await ready.promise;
    } finally {
      clearTimeout(timer);
    }
    // Word timings, from servers that offer them (an older server would refuse the field).
    if (message.word_timings !== undefined) channel.send({ type: 'config', words: true });
    if (options.paused()) channel.pause?.();
    return message;
  }

  /** The server's ready (a second one is ignored). */
  readyArrived(message: ReadyMessage): void {
    const ready = this.#ready;
    this.#ready = null;
    ready?.resolve(message);
  }

  /** Refused before ready: the connection is closed and open() rejects with `refused`. */
  refuse(refused: TtsTransportError): void {
    const ready = this.#ready;
    this.#ready = null;
    if (!this.#channel) this.#refused = refused; // the opener has not returned yet
    this.close();
    ready?.reject(refused);
  }

  /** The channel broke (it is gone: nothing to close). Returns true when it broke before ready:
   *  open() rejects with `error`. */
  broke(error: TtsTransportError): boolean {
    this.#listening = false;
    this.#channel = null;
    const ready = this.#ready;
    this.#ready = null;
    ready?.reject(error);
    return ready !== null;
  }

  send(message: ClientMessage): void {
    if (this.#listening) this.#channel?.send(message);
  }

  /** Before ready the channel is not paused (its ready must be read): open() pauses it after. */
  pause(): void {
    if (this.#listening && !this.awaitingReady) this.#channel?.pause?.();
  }

  resume(): void {
    if (this.#listening) this.#channel?.resume?.();
  }

  /** The session is done with this stream: closed (the server frees its work), not heard any more. */
  close(): void {
    this.#listening = false;
    this.#channel?.close();
    this.#channel = null;
  }
}

// ---- The send window. Text goes to the server at once, within a window: at most TEXT_AHEAD_CHARS
// characters whose audio has not arrived (one utterance at least). Synthesis runs far ahead of
// playback, so the window never holds back a reader that keeps up; for one that does not (a paused
// session), it bounds what the server synthesises and buffers towards us (the container drops a
// client with 16 MiB unread: MAX_WS_BUFFERED_BYTES) and what a reconnect re-sends. After end(),
// `end` goes once on each stream, after all the text.

/** Characters of text sent whose audio has not arrived, at most (about a minute of speech). */
export const TEXT_AHEAD_CHARS = 1000;

export interface Text {
  id: string;
  text: string;
}

export class SendWindow {
  /** Utterances given to speak() and not yet sent (the window was full), in order. */
  #unsent: Text[] = [];
  /** `end` went out on the current stream. */
  #endSent = false;

  queue(id: string, text: string): void {
    this.#unsent.push({ id, text });
  }

  /** Nothing waits to be sent. */
  get empty(): boolean {
    return this.#unsent.length === 0;
  }

  /** Everything went out on this stream, `end` included. */
  get finished(): boolean {
    return this.#unsent.length === 0 && this.#endSent;
  }

  /** Cancel: what waits is dropped. */
  clear(): void {
    this.#unsent = [];
  }

  /** A new stream: `end` has not gone out on it. */
  newStream(): void {
    this.#endSent = false;
  }

  /**
   * Of `pending` (the utterances awaiting audio, in order, the unsent ones included), those sent
   * on this stream.
   */
  sent(pending: ReadonlyMap<string, Text>): string[] {
    const unsent = new Set(this.#unsent.map((u) => u.id));
    return [...pending.keys()].filter((id) => !unsent.has(id));
  }

  /** Takes off the queue, in order, what the window lets go now (given `pending`, as above). */
  take(pending: ReadonlyMap<string, Text>): Text[] {
    let ahead = 0; // characters sent whose audio has not arrived
    for (const u of pending.values()) ahead += u.text.length;
    for (const u of this.#unsent) ahead -= u.text.length;
    const going: Text[] = [];
    while (this.#unsent.length > 0) {
      const next = this.#unsent[0]!;
      if (ahead > 0 && ahead + next.text.length > TEXT_AHEAD_CHARS) break;
      this.#unsent.shift();
      ahead += next.text.length;
      going.push(next);
    }
    return going;
  }

  /** Whether `end` is due now (`ending`: end() was called; all text sent); then counts it sent. */
  takeEnd(ending: boolean): boolean {
    if (!ending || this.#unsent.length > 0 || this.#endSent) return false;
    this.#endSent = true;
    return true;
  }
}

// ---- The tries of one StreamRetrier.connect (retry.ts) as an observer hears them: the first try
// for its reason (open, retry after a refusal, reconnect after a break), those after it retries;
// each one's end: ready, refused or failed.

export function observedTries<T>(
  connect: () => Promise<T>,
  why: StreamTry,
  observer: TtsSessionObserver | undefined,
): () => Promise<T> {
  if (!observer) return connect;
  let first = true;
  return async () => {
    const ended = observer.streamTry(first ? why : 'retry');
    first = false;
    try {
      const result = await connect();
      ended({ result: 'ready' });
      return result;
    } catch (error) {
      const refused = error instanceof TtsTransportError && error.code === 'overloaded';
      ended({ result: refused ? 'refused' : 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
}
