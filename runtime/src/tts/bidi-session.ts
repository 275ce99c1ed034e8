// The protocol-v1 session (direct WebSocket or SageMaker bidi stream), and the one place to follow
// what happens to it: pipelined speak, cancel with no stale audio, end/done, a refusal retried
// (#handle's `overloaded`, then #reopen) and a break ridden out (#onBroken -> #reopen ->
// #onNewStream, which re-sends the utterances whose audio was not complete, announced by a
// `reconnected` event; the session core splices their audio so that the caller gets every byte
// once). Beside it: the stream and its send window (bidi-stream.ts), the retry policy (retry.ts);
// the utterances (utterances.ts) and delivery (session-core.ts) are bookkeeping.
import { serverMessageSchema, voiceSettingsSchema } from '@kokoro-speech/protocol';
import type { ClientMessage, ReadyMessage, ServerMessage } from '@kokoro-speech/protocol';
import { observedTries, SendWindow, StreamLink, type ChannelOpener } from './bidi-stream.ts';
import { DEFAULT_RETRY_POLICY, StreamRetrier, type RetryPolicy, type Retrying } from './retry.ts';
import { SessionCore } from './session-core.ts';
import { TtsTransportError } from './types.ts';
import type { SpeakOptions, StreamTry, TtsEvent, TtsSession, TtsSessionObserver } from './types.ts';
import type { VoiceInfo, VoiceSettings } from './types.ts';
import { UtteranceTracker } from './utterances.ts';

/** How the session gets its streams: the ready timeout, the retry policy, who hears the tries. */
type Connecting = { readyTimeoutMs: number; retry: RetryPolicy; observer?: TtsSessionObserver | undefined };

type Ready = { sample_rate: number; format: string; voices: string[]; voice_info?: VoiceInfo[] };

/** The session's stream. */
type StreamState =
  /** A connection is being made (open(), or a retry), until the session takes it up. */
  | { kind: 'connecting'; link: StreamLink }
  /** Text goes out and audio comes in. */
  | { kind: 'streaming'; link: StreamLink }
  /** No stream: a try failed or the stream broke; the retrier waits before the next try. */
  | { kind: 'retrying' }
  /** The stream broke while nothing was in flight (an idle timeout, say): re-opened at the next speak(). */
  | { kind: 'idle'; broke: TtsTransportError }
  /** Done, closed or failed: no stream any more. */
  | { kind: 'closed' };

export class BidiSession implements TtsSession {
  ready!: Promise<Ready>;
  readonly #opener: ChannelOpener;
  readonly #settings: VoiceSettings;
  readonly #how: Connecting;
  readonly #core = new SessionCore();
  readonly #utterances = new UtteranceTracker(this.#core);
  readonly #window = new SendWindow();
  readonly #retrier: StreamRetrier;
  #state: StreamState = { kind: 'retrying' };
  /** The current stream's server takes `traceparent` (its ready said `tracing: true`). */
  #tracing = false;

  private constructor(opener: ChannelOpener, settings: VoiceSettings, how: Connecting) {
    this.#opener = opener;
    this.#settings = settings;
    this.#how = how;
    this.#retrier = new StreamRetrier(how.retry, () => this.#core.stopped);
  }

  /** Connects, sends `config` and resolves once the server's `ready` has arrived. */
  static async open(
    opener: ChannelOpener,
    settings: VoiceSettings,
    signal?: AbortSignal,
    readyTimeoutMs = 15_000,
    retry: RetryPolicy = DEFAULT_RETRY_POLICY,
    observer?: TtsSessionObserver,
  ): Promise<BidiSession> {
    const parsed = voiceSettingsSchema.strict().safeParse(settings);
    if (!parsed.success) throw new TypeError(`invalid voice settings: ${parsed.error.message}`);
    const session = new BidiSession(opener, parsed.data, { readyTimeoutMs, retry, observer });
    const ready = await session.#retrier.connect(session.#tries('open', signal), { refusals: true, signal });
    session.#takeUp();
    session.ready = Promise.resolve({
      sample_rate: parsed.data.sample_rate ?? ready.sample_rate,
      format: parsed.data.format ?? ready.format,
      voices: ready.voices,
      ...(ready.voice_info ? { voice_info: ready.voice_info } : {}),
    });
    signal?.addEventListener('abort', () => session.close(), { once: true });
    return session;
  }

  speak(text: string, id?: string, options?: SpeakOptions): string {
    this.#core.checkSpeak();
    const { id: utteranceId } = this.#utterances.add(text, id, options?.traceparent);
    this.#window.queue(utteranceId, text);
    this.#sendAhead();
    return utteranceId;
  }

  pause(): void {
    if (this.#core.pause()) this.#link?.pause();
  }

  resume(): void {
    if (this.#core.resume()) this.#link?.resume();
  }

  cancel(): Promise<string[]> {
    const refused = this.#core.cancelRefusal();
    if (refused) return refused;
    const ids = this.#utterances.dropAll();
    this.#window.clear();
    const { state } = this.#core;
    if (state === 'closed' || state === 'done' || this.#state.kind !== 'streaming') return Promise.resolve(ids);
    const done = this.#utterances.awaitCancelled(ids);
    this.#send({ type: 'cancel' });
    return done;
  }

  end(): Promise<void> {
    return this.#core.end(() => {
      if (this.#state.kind === 'idle' && this.#window.empty) {
        // The stream is gone and nothing was in flight: all audio has been delivered.
        this.#handle({ type: 'done' }, null);
      } else {
        this.#sendAhead();
      }
    });
  }

  events(): AsyncIterable<TtsEvent> {
    return this.#core.events;
  }

  close(): void {
    if (!this.#core.close()) return;
    this.#leave({ kind: 'closed' });
    this.#utterances.settleCancels();
  }

  /** The stream being made or used. */
  get #link(): StreamLink | null {
    const state = this.#state;
    return state.kind === 'connecting' || state.kind === 'streaming' ? state.link : null;
  }

  /** Moves to `next`, closing the stream the session had (none of its messages counts any more). */
  #leave(next: StreamState): void {
    const link = this.#link;
    this.#state = next;
    link?.close();
  }

  #send(message: ClientMessage): void {
    this.#link?.send(message);
  }

  /** Sends the text the window allows, then `end` once everything is sent after end(). */
  #sendAhead(): void {
    const state = this.#state;
    if (this.#core.stopped || this.#window.finished) return;
    if (state.kind === 'idle') {
      // Sends once connected (no audio of it yet: a refusal may be retried).
      if (!this.#window.empty) void this.#reopen({ refusals: true, broke: state.broke }, false);
      return;
    }
    if (state.kind !== 'streaming') return; // a new stream sends all once it is up
    for (const { id } of this.#window.take(this.#utterances.pending)) this.#sendText(id);
    if (this.#window.takeEnd(this.#core.state === 'ending')) this.#send({ type: 'end' });
  }

  /** A `text` message, with its trace parent when the server takes one. */
  #sendText(id: string): void {
    const { text, traceparent } = this.#utterances.pending.get(id)!;
    this.#send({ type: 'text', text, id, ...(this.#tracing && traceparent ? { traceparent } : {}) });
  }

  /** The tries of one retrier.connect, as the observer hears them. */
  #tries(why: StreamTry, signal?: AbortSignal): () => Promise<ReadyMessage> {
    return observedTries(() => this.#connect(signal), why, this.#how.observer);
  }

  /** One try: a new stream, up to its ready. */
  async #connect(signal?: AbortSignal): Promise<ReadyMessage> {
    const link = new StreamLink();
    this.#state = { kind: 'connecting', link };
    const handlers = {
      onMessage: (data: string | Uint8Array) => this.#onMessage(data, link),
      onBroken: (error: TtsTransportError) => void this.#onBroken(error, link),
    };
    const options = { settings: this.#settings, readyTimeoutMs: this.#how.readyTimeoutMs, signal };
    try {
      const ready = await link.open(this.#opener, handlers, { ...options, paused: () => this.#core.paused });
      this.#tracing = ready.tracing === true;
      return ready;
    } catch (error) {
      if (this.#link === link) this.#state = { kind: 'retrying' };
      throw error;
    }
  }

  /** The stream that reached ready is the session's now. */
  #takeUp(): void {
    if (this.#state.kind === 'connecting') this.#state = { kind: 'streaming', link: this.#state.link };
  }

  #onMessage(data: string | Uint8Array, link: StreamLink): void {
    if (typeof data !== 'string') return this.#utterances.audio(data);
    let message: ServerMessage;
    try {
      const parsed = serverMessageSchema.safeParse(JSON.parse(data));
      if (!parsed.success) return; // not protocol v1: dropped, not fatal
      message = parsed.data;
    } catch {
      return;
    }
    this.#handle(message, link);
  }

  #handle(message: ServerMessage, link: StreamLink | null): void {
    switch (message.type) {
      case 'ready':
        return link?.readyArrived(message);
      case 'audio_start':
        this.#retrier.audioStarted();
        return this.#utterances.audioStart(message);
      case 'words':
        return this.#utterances.words(message);
      case 'audio_end':
        if (this.#utterances.audioEnd(message)) this.#retrier.progressed();
        return this.#sendAhead();
      case 'cancelled':
        return this.#utterances.cancelled();
      case 'error': {
        const refused = () => new TtsTransportError('overloaded', message.message, { retryable: true });
        // Refused at connect (the server closes next): a refusal the retrier may retry.
        if (message.code === 'overloaded' && message.id === null && link?.awaitingReady) return link.refuse(refused());
        if (
          message.code === 'overloaded' &&
          this.#retrier.beforeAudio &&
          this.#state.kind === 'streaming' &&
          message.id !== null &&
          this.#utterances.pending.has(message.id)
        ) {
          // The first answer refused before any audio: a new session (maybe elsewhere), after a backoff.
          void this.#reopen({ refusals: true, refused: refused() }, false);
          return;
        }
        this.#utterances.error(message);
        return this.#sendAhead();
      }
      case 'done':
        if (this.#core.finish()) this.#leave({ kind: 'closed' });
        return;
    }
  }

  async #onBroken(error: TtsTransportError, link: StreamLink): Promise<void> {
    if (this.#core.stopped || this.#core.state === 'done') return;
    if (link.broke(error)) return; // before ready: that try failed (the retrier decides)
    this.#state = { kind: 'retrying' };
    const sent = this.#window.sent(this.#utterances.pending);
    if (sent.length === 0 && this.#core.state === 'open' && !this.#utterances.cancelling) {
      this.#state = { kind: 'idle', broke: error }; // nothing in flight: re-opened lazily
      return;
    }
    if (!this.#retrier.takeReopen()) return this.#fail(error);
    await this.#reopen({ refusals: false, broke: error }, true);
  }

  /**
   * A new stream after a break (`announce`: mid-answer, what was sent is re-sent and a `reconnected`
   * event says so) or after a refusal before any audio; the retrier decides how long to try.
   */
  async #reopen(how: Retrying, announce: boolean): Promise<void> {
    const resent = announce ? this.#window.sent(this.#utterances.pending) : [];
    this.#leave({ kind: 'retrying' });
    try {
      await this.#retrier.connect(this.#tries(how.broke ? 'reconnect' : 'retry'), how);
    } catch (reason) {
      return this.#fail(reason instanceof TtsTransportError ? reason : (how.refused ?? how.broke!));
    }
    this.#onNewStream(resent, announce);
  }

  /** On the new stream: splice bookkeeping, then what was sent again, then the rest within the window. */
  #onNewStream(resent: string[], announce: boolean): void {
    if (this.#core.stopped) return; // closed by the caller while reconnecting
    this.#takeUp();
    if (resent.length > 0 || announce) this.#core.resent(resent, announce);
    this.#utterances.newStream();
    for (const id of this.#window.sent(this.#utterances.pending)) this.#sendText(id);
    this.#window.newStream();
    this.#sendAhead(); // the rest within the window, then `end` after end()
  }

  #fail(error: TtsTransportError): void {
    if (!this.#core.fail(error)) return;
    this.#leave({ kind: 'closed' });
    this.#utterances.settleCancels(error);
  }
}
