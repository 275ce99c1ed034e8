// One stream of a protocol-v1 session (bidi-session.ts) on its channel: connects, sends `config`
// and waits for the server's `ready`, bounded (a peer that never says ready is no protocol-v1
// container); a refusal before ready (`overloaded`; the server closes next) or a break rejects
// that wait. Once the session leaves a link (closed, broken, refused, timed out), nothing of its
// channel reaches the session any more: a late message of an old stream cannot count.
import type { ClientMessage, ReadyMessage, VoiceSettings } from '@kokoro-speech/protocol';
import type { Channel, ChannelHandlers, ChannelOpener } from './channel.ts';
import { TtsTransportError } from './types.ts';

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
