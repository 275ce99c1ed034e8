// A TtsSession over protocol v1 on any message channel (direct WebSocket or SageMaker bidi stream):
// pipelined speak, cancel with no stale audio, end/done, and one reconnect that re-sends the
// utterances whose audio was not complete (announced by a `reconnected` event; the session core
// splices their audio so that the caller gets every byte once). Lifecycle and delivery: session-core.ts.
//
// A refusal before any audio (the server answers the connect with 503 or an `overloaded` error
// before `ready`, or refuses the session's first utterance with `overloaded`) is retried with
// backoff and jitter (backoff.ts) within the retry budget: each try is a new connection, which
// behind an endpoint may land on another instance. Past the budget the session fails with an
// `overloaded` TtsTransportError. Once audio has started, a break is the reconnect's business.
//
// Text goes to the server at once, within a window: at most TEXT_AHEAD_CHARS characters whose
// audio has not arrived (one utterance at least). Synthesis runs far ahead of playback, so the
// window never holds back a reader that keeps up; for one that does not (a paused session), it
// bounds what the server synthesises and buffers towards us (the container drops a client with
// 16 MiB unread: MAX_WS_BUFFERED_BYTES) and what a reconnect re-sends.
import { serverMessageSchema, voiceSettingsSchema } from '@kokoro-speech/protocol';
import type { ClientMessage, ReadyMessage, ServerMessage } from '@kokoro-speech/protocol';
import type { Channel, ChannelOpener } from './channel.ts';
import { SessionCore } from './session-core.ts';
import { TtsTransportError } from './types.ts';
import type { TtsEvent, TtsSession, VoiceInfo, VoiceSettings } from './types.ts';
import { UtteranceTracker } from './utterance-tracker.ts';
import { Backoff, DEFAULT_RECONNECT_BUDGET_MS, DEFAULT_RETRY_BUDGET_MS, sleep, type RetryPolicy } from './backoff.ts';

const isOverloaded = (error: unknown): error is TtsTransportError =>
  error instanceof TtsTransportError && error.code === 'overloaded';

type Ready = { sample_rate: number; format: string; voices: string[]; voice_info?: VoiceInfo[] };
type Pending = { id: string; text: string };

/** Characters of text sent whose audio has not arrived, at most (about a minute of speech). */
export const TEXT_AHEAD_CHARS = 1000;

export class BidiSession implements TtsSession {
  ready!: Promise<Ready>;
  readonly #opener: ChannelOpener;
  readonly #settings: VoiceSettings;
  readonly #readyTimeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #core = new SessionCore();
  readonly #utterances = new UtteranceTracker(this.#core);
  readonly #cancels: Array<{ ids: string[]; done: PromiseWithResolvers<string[]> }> = [];
  #channel: Channel | null = null;
  #generation = 0;
  #awaitingReady: PromiseWithResolvers<ReadyMessage> | null = null;
  #reconnecting = false;
  #canReconnect = true;
  /** Utterances given to speak() and not yet sent (the window was full), in order. */
  #unsent: Pending[] = [];
  /** `end` went out on the current stream. */
  #endSent = false;
  /** Set when the stream broke while nothing was in flight. */
  #idle: TtsTransportError | null = null;
  /** The refusal (`overloaded` before ready) that ended the connection being made. */
  #refusedAtConnect: TtsTransportError | null = null;
  /** Some audio has arrived on this session (refusals are no longer retried here). */
  #heardAudio = false;
  /** One budget for all the refusals before audio (connect, first utterance); reset by audio. */
  readonly #backoff: Backoff;

  private constructor(opener: ChannelOpener, settings: VoiceSettings, readyTimeoutMs: number, retry: RetryPolicy) {
    this.#opener = opener;
    this.#settings = settings;
    this.#readyTimeoutMs = readyTimeoutMs;
    this.#retry = retry;
    this.#backoff = new Backoff(retry);
  }

  /** Connects, sends `config` and resolves once the server's `ready` has arrived. */
  static async open(
    opener: ChannelOpener,
    settings: VoiceSettings,
    signal?: AbortSignal,
    readyTimeoutMs = 15_000,
    retry: RetryPolicy = { budgetMs: DEFAULT_RETRY_BUDGET_MS },
  ): Promise<BidiSession> {
    const parsed = voiceSettingsSchema.strict().safeParse(settings);
    if (!parsed.success) throw new TypeError(`invalid voice settings: ${parsed.error.message}`);
    const session = new BidiSession(opener, parsed.data, readyTimeoutMs, retry);
    const ready = await session.#connectRetrying(signal);
    session.ready = Promise.resolve({
      sample_rate: parsed.data.sample_rate ?? ready.sample_rate,
      format: parsed.data.format ?? ready.format,
      voices: ready.voices,
      ...(ready.voice_info ? { voice_info: ready.voice_info } : {}),
    });
    signal?.addEventListener('abort', () => session.close(), { once: true });
    return session;
  }

  speak(text: string, id?: string): string {
    this.#core.checkSpeak();
    const { id: utteranceId } = this.#utterances.add(text, id);
    this.#unsent.push({ id: utteranceId, text });
    this.#sendAhead();
    return utteranceId;
  }

  pause(): void {
    if (this.#core.pause()) this.#channel?.pause?.();
  }

  resume(): void {
    if (this.#core.resume()) this.#channel?.resume?.();
  }

  /** Sends the text the window allows, then `end` once everything is sent after end(). */
  #sendAhead(): void {
    if (this.#core.stopped || this.#reconnecting || (this.#unsent.length === 0 && this.#endSent)) return;
    if (this.#idle) {
      if (this.#unsent.length === 0) return;
      const cause = this.#idle;
      this.#idle = null;
      void this.#reconnect(cause, false); // sends once connected (no audio of it yet)
      return;
    }
    let ahead = this.#charsInFlight();
    while (this.#unsent.length > 0) {
      const next = this.#unsent[0]!;
      if (ahead > 0 && ahead + next.text.length > TEXT_AHEAD_CHARS) break;
      this.#unsent.shift();
      ahead += next.text.length;
      this.#send({ type: 'text', text: next.text, id: next.id });
    }
    if (this.#core.state === 'ending' && this.#unsent.length === 0 && !this.#endSent) {
      this.#endSent = true;
      this.#send({ type: 'end' });
    }
  }

  /** Characters sent on this stream whose audio has not arrived. */
  #charsInFlight(): number {
    let chars = 0;
    for (const u of this.#utterances.pending.values()) chars += u.text.length;
    for (const u of this.#unsent) chars -= u.text.length;
    return chars;
  }

  /** Utterances sent whose audio is not complete, in order. */
  #sentPending(): string[] {
    const unsent = new Set(this.#unsent.map((u) => u.id));
    return [...this.#utterances.pending.keys()].filter((id) => !unsent.has(id));
  }

  cancel(): Promise<string[]> {
    const refused = this.#core.cancelRefusal();
    if (refused) return refused;
    const ids = this.#utterances.dropAll();
    this.#unsent = [];
    const { state } = this.#core;
    if (state === 'closed' || state === 'done' || this.#reconnecting || this.#idle) return Promise.resolve(ids);
    const done = Promise.withResolvers<string[]>();
    done.promise.catch(() => {}); // rejected when the session fails, whether or not anyone waits
    this.#cancels.push({ ids, done });
    this.#send({ type: 'cancel' });
    return done.promise;
  }

  end(): Promise<void> {
    return this.#core.end(() => {
      if (this.#idle && this.#unsent.length === 0) {
        // The stream is gone and nothing was in flight: all audio has been delivered.
        this.#handle({ type: 'done' });
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
    this.#dropChannel();
    for (const { ids, done } of this.#cancels.splice(0)) done.resolve(ids);
  }

  /** The current channel is closed and no late message of it counts. */
  #dropChannel(): void {
    this.#generation++;
    this.#channel?.close();
    this.#channel = null;
  }

  #send(message: ClientMessage): void {
    this.#channel?.send(message);
  }

  /**
   * Connects; refusals (`overloaded`) are retried with backoff within the retry budget. `refused`:
   * a refusal already in hand (the first utterance's), counted as the first failure.
   */
  async #connectRetrying(signal?: AbortSignal, refused?: TtsTransportError): Promise<ReadyMessage> {
    const backoff = this.#backoff;
    let last = refused;
    for (;;) {
      if (last) {
        const delayMs = backoff.next();
        if (delayMs === null) {
          throw new TtsTransportError(
            'overloaded',
            `the TTS server refused the session ${backoff.attempts + 1} time${backoff.attempts ? 's' : ''}` +
              ` in ${Math.round(backoff.elapsedMs)} ms (retry budget ${backoff.budgetMs} ms, TTS_RETRY_BUDGET_MS): ${last.message}`,
            { cause: last, retryable: true },
          );
        }
        this.#retry.onRetry?.({ attempt: backoff.attempts, delayMs, reason: last.message });
        await sleep(delayMs, signal);
        if (this.#core.stopped) throw new TtsTransportError('connection_lost', 'session closed while retrying');
      }
      try {
        return await this.#connect(signal);
      } catch (error) {
        if (!isOverloaded(error)) throw error;
        last = error;
      }
    }
  }

  async #connect(signal?: AbortSignal): Promise<ReadyMessage> {
    const generation = ++this.#generation;
    const ready = Promise.withResolvers<ReadyMessage>();
    ready.promise.catch(() => {}); // settled by a message or a break; awaited below
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
      channel.close(); // closed while connecting, or refused before the opener returned
      const refused = this.#refusedAtConnect;
      this.#refusedAtConnect = null;
      throw refused ?? new TtsTransportError('connection_lost', 'session closed while connecting');
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
    let message: ReadyMessage;
    try {
      message = await ready.promise;
    } finally {
      clearTimeout(timer);
    }
    // Word timings, from servers that offer them (an older server would refuse the field).
    if (message.word_timings !== undefined) channel.send({ type: 'config', words: true });
    // A stream opened while the reader is behind starts paused (its ready has been read).
    if (this.#core.paused) channel.pause?.();
    return message;
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
        this.#heardAudio = true;
        this.#backoff.reset();
        return this.#utterances.audioStart(message);
      case 'words':
        return this.#utterances.words(message);
      case 'audio_end':
        // Progress on this stream: a later break may reconnect again.
        if (this.#utterances.audioEnd(message)) this.#canReconnect = true;
        return this.#sendAhead();
      case 'cancelled': {
        const cancel = this.#cancels.shift();
        if (!cancel) return;
        this.#utterances.forget(cancel.ids);
        cancel.done.resolve(cancel.ids);
        return;
      }
      case 'error':
        if (message.code === 'overloaded' && message.id === null && this.#awaitingReady) {
          // Refused at connect (the server closes next): a refusal open() may retry.
          const waiter = this.#awaitingReady;
          this.#awaitingReady = null;
          const refused = new TtsTransportError('overloaded', message.message, { retryable: true });
          if (!this.#channel) this.#refusedAtConnect = refused; // the opener has not returned yet
          this.#dropChannel();
          waiter.reject(refused);
          return;
        }
        if (
          message.code === 'overloaded' &&
          !this.#heardAudio &&
          !this.#reconnecting &&
          message.id !== null &&
          this.#utterances.pending.has(message.id)
        ) {
          // The first answer refused before any audio: try the whole session again.
          void this.#retryRefusedSession(new TtsTransportError('overloaded', message.message, { retryable: true }));
          return;
        }
        this.#utterances.error(message);
        return this.#sendAhead();
      case 'done':
        if (this.#core.finish()) this.#dropChannel();
        return;
    }
  }

  async #onBroken(error: TtsTransportError): Promise<void> {
    if (this.#core.stopped || this.#core.state === 'done') return;
    this.#channel = null;
    if (this.#awaitingReady) {
      this.#awaitingReady.reject(error);
      this.#awaitingReady = null;
      return;
    }
    if (this.#sentPending().length === 0 && this.#core.state === 'open' && this.#cancels.length === 0) {
      // Nothing in flight (an idle timeout, say): reconnect lazily on the next speak().
      this.#idle = error;
      return;
    }
    if (!this.#canReconnect) return this.#fail(error);
    this.#canReconnect = false;
    await this.#reconnect(error, true);
  }

  /** The session's first utterance was refused: a new session (maybe elsewhere), after a backoff. */
  async #retryRefusedSession(refused: TtsTransportError): Promise<void> {
    this.#reconnecting = true;
    this.#dropChannel();
    try {
      await this.#connectRetrying(undefined, refused);
    } catch (reason) {
      return this.#fail(reason instanceof TtsTransportError ? reason : refused);
    }
    this.#onNewStream([], false);
  }

  /**
   * Re-opens a broken stream: at once, then with backoff and jitter (backoff.ts, the refusals'
   * policy) until the reconnect budget is spent (`retry.reconnectBudgetMs`, TTS_RECONNECT_BUDGET_MS),
   * so that a container restarting (a deploy, a crash: 1-2 s) or an instance being replaced is
   * ridden out; a failure that retrying cannot cure (credentials, a 4xx) ends the session at once.
   */
  async #reconnect(error: TtsTransportError, announce: boolean): Promise<void> {
    this.#reconnecting = true;
    const resent = this.#sentPending();
    const budgetMs = this.#retry.reconnectBudgetMs ?? DEFAULT_RECONNECT_BUDGET_MS;
    const backoff = new Backoff({ ...this.#retry, budgetMs });
    for (let attempt = 1; ; attempt++) {
      try {
        // Lazily after an idle break nothing pending has audio yet: a refusal may be retried.
        await (announce ? this.#connect() : this.#connectRetrying());
        break;
      } catch (reason) {
        if (this.#core.stopped) return; // closed by the caller while reconnecting
        const cause = reason instanceof TtsTransportError ? reason : error;
        const delayMs = cause.retryable ? backoff.next() : null;
        if (delayMs === null) {
          const tries = `${attempt} time${attempt > 1 ? 's' : ''} in ${Math.round(backoff.elapsedMs)} ms`;
          const why = cause.retryable ? ` (reconnect budget ${budgetMs} ms, TTS_RECONNECT_BUDGET_MS)` : '';
          return this.#fail(
            new TtsTransportError(
              cause.code,
              `stream broke (${error.message}) and reconnecting failed ${tries}${why}: ${cause.message}`,
              { cause: reason, retryable: cause.retryable },
            ),
          );
        }
        this.#retry.onRetry?.({ attempt, delayMs, reason: `reconnecting: ${cause.message}` });
        await sleep(delayMs);
        if (this.#core.stopped) return;
      }
    }
    this.#onNewStream(resent, announce);
  }

  /** On the new stream: splice bookkeeping, then what was sent again, then the rest within the window. */
  #onNewStream(resent: string[], announce: boolean): void {
    if (this.#core.stopped) return; // closed by the caller while reconnecting
    this.#reconnecting = false;
    if (resent.length > 0 || announce) this.#core.resent(resent, announce);
    // The old server session is gone with everything it had queued: cancels are complete.
    for (const { ids, done } of this.#cancels.splice(0)) done.resolve(ids);
    this.#utterances.newStream();
    for (const id of this.#sentPending()) {
      const utterance = this.#utterances.pending.get(id)!;
      this.#send({ type: 'text', text: utterance.text, id });
    }
    this.#endSent = false;
    this.#sendAhead(); // the rest within the window, then `end` after end()
  }

  #fail(error: TtsTransportError): void {
    if (!this.#core.fail(error)) return;
    this.#dropChannel();
    for (const { done } of this.#cancels.splice(0)) done.reject(error);
  }
}
