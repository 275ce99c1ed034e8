// A TtsSession over protocol v1 on any message channel (direct WebSocket or SageMaker bidi stream):
// pipelined speak, cancel with no stale audio, end/done, and one reconnect that re-sends the
// utterances whose audio was not complete (announced by a `reconnected` event).
import { serverMessageSchema, voiceSettingsSchema } from '@kokoro-speech/protocol';
import type { ClientMessage, ReadyMessage, ServerMessage } from '@kokoro-speech/protocol';
import type { Channel, ChannelOpener } from './channel.ts';
import { deferred } from './deferred.ts';
import type { Deferred } from './deferred.ts';
import { EventQueue } from './event-queue.ts';
import { TtsTransportError } from './types.ts';
import type { TtsEvent, TtsSession, VoiceSettings } from './types.ts';
import { UtteranceTracker } from './utterance-tracker.ts';

type Ready = { sample_rate: number; format: string; voices: string[] };

export class ProtocolSession implements TtsSession {
  ready!: Promise<Ready>;
  readonly #opener: ChannelOpener;
  readonly #settings: VoiceSettings;
  readonly #readyTimeoutMs: number;
  readonly #queue = new EventQueue<TtsEvent>();
  readonly #utterances = new UtteranceTracker(this.#queue);
  readonly #cancels: Array<{ ids: string[]; done: Deferred<string[]> }> = [];
  #channel: Channel | null = null;
  #generation = 0;
  #awaitingReady: Deferred<ReadyMessage> | null = null;
  #state: 'open' | 'ending' | 'done' | 'closed' | 'failed' = 'open';
  #fatal: TtsTransportError | null = null;
  #end: Deferred<void> | null = null;
  #reconnecting = false;
  #canReconnect = true;
  /** Set when the stream broke while nothing was in flight. */
  #idle: TtsTransportError | null = null;

  private constructor(opener: ChannelOpener, settings: VoiceSettings, readyTimeoutMs: number) {
    this.#opener = opener;
    this.#settings = settings;
    this.#readyTimeoutMs = readyTimeoutMs;
  }

  /** Connects, sends `config` and resolves once the server's `ready` has arrived. */
  static async open(
    opener: ChannelOpener,
    settings: VoiceSettings,
    signal?: AbortSignal,
    readyTimeoutMs = 15_000,
  ): Promise<ProtocolSession> {
    const parsed = voiceSettingsSchema.strict().safeParse(settings);
    if (!parsed.success) throw new TypeError(`invalid voice settings: ${parsed.error.message}`);
    const session = new ProtocolSession(opener, parsed.data, readyTimeoutMs);
    const ready = await session.#connect(signal);
    session.ready = Promise.resolve({
      sample_rate: parsed.data.sample_rate ?? ready.sample_rate,
      format: parsed.data.format ?? ready.format,
      voices: ready.voices,
    });
    signal?.addEventListener('abort', () => session.close(), { once: true });
    return session;
  }

  speak(text: string, id?: string): string {
    if (this.#fatal) throw this.#fatal;
    if (this.#state !== 'open') throw new Error(`speak() after ${this.#state === 'closed' ? 'close()' : 'end()'}`);
    const { id: utteranceId } = this.#utterances.add(text, id);
    if (this.#idle) {
      const cause = this.#idle;
      this.#idle = null;
      void this.#reconnect(cause, false); // sends the pending utterance once connected
    } else if (!this.#reconnecting) {
      this.#send({ type: 'text', text, id: utteranceId });
    }
    return utteranceId;
  }

  cancel(): Promise<string[]> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    const ids = this.#utterances.dropAll();
    if (this.#state === 'closed' || this.#state === 'done' || this.#reconnecting || this.#idle)
      return Promise.resolve(ids);
    const done = deferred<string[]>();
    this.#cancels.push({ ids, done });
    this.#send({ type: 'cancel' });
    return done.promise;
  }

  end(): Promise<void> {
    if (this.#fatal) return Promise.reject(this.#fatal);
    if (this.#state === 'done') return Promise.resolve();
    if (this.#state === 'closed') return Promise.reject(new Error('end() after close()'));
    if (!this.#end) {
      this.#end = deferred<void>();
      this.#state = 'ending';
      if (this.#idle) {
        // The stream is gone and nothing was in flight: all audio has been delivered.
        this.#handle({ type: 'done' });
        return this.#end.promise;
      }
      if (!this.#reconnecting) this.#send({ type: 'end' });
    }
    return this.#end.promise;
  }

  events(): AsyncIterable<TtsEvent> {
    return this.#queue;
  }

  close(): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    const wasDone = this.#state === 'done';
    this.#state = 'closed';
    this.#generation++;
    this.#channel?.close();
    this.#channel = null;
    this.#queue.finish();
    if (!wasDone) this.#end?.reject(new Error('session closed before the server sent done'));
    for (const { ids, done } of this.#cancels.splice(0)) done.resolve(ids);
  }

  #send(message: ClientMessage): void {
    this.#channel?.send(message);
  }

  async #connect(signal?: AbortSignal): Promise<ReadyMessage> {
    const generation = ++this.#generation;
    const ready = deferred<ReadyMessage>();
    this.#awaitingReady = ready;
    const channel = await this.#opener(
      {
        onMessage: (data) => {
          if (generation === this.#generation) this.#onMessage(data);
        },
        onBroken: (error) => {
          if (generation === this.#generation) this.#onBroken(error);
        },
      },
      signal,
    );
    if (generation !== this.#generation) {
      channel.close(); // closed while connecting
      throw new TtsTransportError('connection_lost', 'session closed while connecting');
    }
    this.#channel = channel;
    channel.send({ type: 'config', ...this.#settings });
    // A peer that connects but never says ready (not a protocol-v1 container) must not hang open().
    const timer = setTimeout(() => {
      if (this.#awaitingReady !== ready) return;
      this.#awaitingReady = null;
      this.#generation++;
      channel.close();
      ready.reject(
        new TtsTransportError(
          'bad_response',
          `no ready message within ${this.#readyTimeoutMs} ms: is this a protocol v1 Kokoro container?`,
        ),
      );
    }, this.#readyTimeoutMs);
    try {
      return await ready.promise;
    } finally {
      clearTimeout(timer);
    }
  }

  #onMessage(data: string | Uint8Array): void {
    if (typeof data !== 'string') return this.#utterances.audio(data);
    let message: ServerMessage;
    try {
      const parsed = serverMessageSchema.safeParse(JSON.parse(data));
      if (!parsed.success) return; // not protocol v1: dropped, not fatal
      message = parsed.data;
    } catch {
      return;
    }
    this.#handle(message);
  }

  #handle(message: ServerMessage): void {
    switch (message.type) {
      case 'ready': {
        const waiter = this.#awaitingReady;
        this.#awaitingReady = null;
        waiter?.resolve(message);
        return;
      }
      case 'audio_start':
        return this.#utterances.audioStart(message);
      case 'audio_end':
        // Progress on this stream: a later break may reconnect again.
        if (this.#utterances.audioEnd(message)) this.#canReconnect = true;
        return;
      case 'cancelled': {
        const cancel = this.#cancels.shift();
        if (!cancel) return;
        this.#utterances.forget(cancel.ids);
        cancel.done.resolve(cancel.ids);
        return;
      }
      case 'error':
        return this.#utterances.error(message);
      case 'done': {
        if (this.#state !== 'ending') return;
        this.#state = 'done';
        this.#generation++;
        this.#channel?.close();
        this.#channel = null;
        this.#queue.finish();
        this.#end?.resolve();
        return;
      }
    }
  }

  async #onBroken(error: TtsTransportError): Promise<void> {
    if (this.#state === 'closed' || this.#state === 'failed' || this.#state === 'done') return;
    this.#channel = null;
    if (this.#awaitingReady) {
      this.#awaitingReady.reject(error);
      this.#awaitingReady = null;
      return;
    }
    if (this.#utterances.pending.size === 0 && this.#state === 'open' && this.#cancels.length === 0) {
      // Nothing in flight (an idle timeout, say): reconnect lazily on the next speak().
      this.#idle = error;
      return;
    }
    if (!this.#canReconnect) return this.#fail(error);
    this.#canReconnect = false;
    await this.#reconnect(error, true);
  }

  async #reconnect(error: TtsTransportError, announce: boolean): Promise<void> {
    this.#reconnecting = true;
    const resent = [...this.#utterances.pending.keys()];
    try {
      await this.#connect();
    } catch (reason) {
      const cause = reason instanceof TtsTransportError ? reason : error;
      return this.#fail(
        new TtsTransportError(cause.code, `stream broke (${error.message}) and reconnecting failed: ${cause.message}`, {
          cause: reason,
        }),
      );
    }
    if (this.#closedMeanwhile()) return;
    this.#reconnecting = false;
    if (announce) this.#queue.push({ type: 'reconnected', resent });
    // The old server session is gone with everything it had queued: cancels are complete.
    for (const { ids, done } of this.#cancels.splice(0)) done.resolve(ids);
    this.#utterances.newStream();
    for (const utterance of this.#utterances.pending.values())
      this.#send({ type: 'text', text: utterance.text, id: utterance.id });
    if (this.#state === 'ending') this.#send({ type: 'end' });
  }

  /** State may change while a reconnect awaits (close() from the caller). */
  #closedMeanwhile(): boolean {
    return this.#state === 'closed' || this.#state === 'failed';
  }

  #fail(error: TtsTransportError): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    this.#state = 'failed';
    this.#fatal = error;
    this.#generation++;
    this.#channel?.close();
    this.#channel = null;
    this.#queue.finish(error);
    this.#end?.reject(error);
    for (const { done } of this.#cancels.splice(0)) done.reject(error);
  }
}
