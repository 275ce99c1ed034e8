// One turn of the voice agent: the agent loop's text deltas -> pieces -> speech text ->
// TtsSession.speak at once (never waiting for earlier audio, except under the `reference` policy)
// -> turn events in order: start, text..., then per sentence in audio order: sentence, audio...,
// sentence_end; `tool` events as tools run; and metrics, error (if any), done. At a tool boundary
// the text before the tool call is cut and spoken at once, a tool running with nothing playing
// may get a spoken filler, and the answer after the tool starts a fresh segmenter (its first piece
// cut early again: the caller is waiting). `words` events (when asked for) come inside their
// sentence; with format "opus" the PCM is re-encoded here, at the edge (src/audio). Cancellation
// (the signal) stops the agent loop and the TTS session at once.
//
// Backpressure: audio is pulled from the TTS session only as fast as the caller takes it. While
// the caller is behind (`flow`), or the Opus encoder has much PCM still to encode, the pump waits
// and the TTS session is paused (its stream no longer read), so a turn holds a bounded amount of
// audio whatever the answer's length (runtime/README.md, "Slow callers").
//
// Its parts: turn-voice.ts (voice, language, settings), answer-reader.ts (the LLM's stream),
// tool-filler.ts (tool events, filler), turn-session.ts (the TTS session, its pump, backpressure).
import { randomUUID } from 'node:crypto';
import { normalizeForSpeech } from '../text/index.ts';
import type { TtsSession, VoiceSettings } from '../tts/types.ts';
import { OpusTurnOutput } from '../audio/opus-output.ts';
import type { TurnPolicy } from './policies.ts';
import { SentenceLedger, type SentencePlace } from './sentences.ts';
import { NoTurnTrace, type TurnTrace } from '../observability/index.ts';
import type { PipelineEvent, TurnContext, TurnFailure, TurnOptions, TurnResult } from './types.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import type { SpokenLanguage } from '@kokoro-speech/protocol';
import { AnswerReader, oneShotAnswer, type AnswerTurn } from './answer-reader.ts';
import { ToolFiller, type ToolTurn } from './tool-filler.ts';
import { openTurnSession, pumpSessionEvents, ttsFailure, type SessionTurn } from './turn-session.ts';
import { chooseTurnVoice } from './turn-voice.ts';

export type {
  CallerFlow,
  AnswerEvent,
  AnswerSource,
  PipelineEvent,
  SentenceTiming,
  TurnContext,
  TurnOptions,
  TurnResult,
  VoiceDefaults,
  WordTiming,
} from './types.ts';

export async function runTurn(context: TurnContext, options: TurnOptions): Promise<TurnResult> {
  return new Turn(context, options).run();
}

class Turn {
  readonly #context: TurnContext;
  readonly #options: TurnOptions;
  readonly #requestId: string;
  readonly #t0 = performance.now();
  readonly #abort = new AbortController();
  readonly #ledger: SentenceLedger;
  #session: TtsSession | null = null;
  /** Sends utterances in order; under `reference` each link also waits for the previous audio. */
  #chain: Promise<void> = Promise.resolve();
  #error: TurnFailure | undefined;
  #cancelled = false;
  /** Settles when the turn stops (failed or cancelled): waits for the caller end with it. */
  readonly #halted = Promise.withResolvers<void>();
  readonly #answer: AnswerReader;
  readonly #tools: ToolFiller;
  #opened: Promise<TtsSession | null> = Promise.resolve(null);
  /** Where events go: straight to the caller, or through the Opus encoder (format "opus"). */
  readonly #out: (event: PipelineEvent) => void;
  readonly #opus: OpusTurnOutput | null;
  /** The answer's language: the voice's (protocol chooseLanguage; the server validated the pair). */
  #language: SpokenLanguage = 'en';
  readonly #trace: TurnTrace;
  /** The turn as its parts (answer reader, tool filler, TTS session) see it. */
  readonly #parts: AnswerTurn & ToolTurn & SessionTurn;

  constructor(context: TurnContext, options: TurnOptions) {
    this.#context = context;
    this.#options = options;
    this.#trace = options.trace ?? new NoTurnTrace();
    const opus = options.request.format === 'opus' ? new OpusTurnOutput(options.emit) : null;
    this.#opus = opus;
    this.#out = opus ? (event) => opus.handle(event) : options.emit;
    this.#requestId = options.requestId ?? randomUUID();
    const policy: TurnPolicy = options.policy ?? (options.request.mode === 'batch' ? 'batch' : 'stream');
    this.#ledger = new SentenceLedger(
      (event) => this.#emit(event),
      () => this.#now(),
      { words: options.request.words === true },
    );
    this.#parts = this.#partsView();
    this.#answer = new AnswerReader(this.#parts, policy);
    this.#tools = new ToolFiller(this.#parts);
  }

  #partsView(): AnswerTurn & ToolTurn & SessionTurn {
    const turn = this;
    return {
      get stopped() {
        return turn.#stopped;
      },
      get cancelled() {
        return turn.#cancelled;
      },
      trace: this.#trace,
      ledger: this.#ledger,
      get tts() {
        return turn.#context.tts;
      },
      signal: this.#abort.signal,
      get flow() {
        return turn.#options.flow;
      },
      opus: this.#opus,
      halted: this.#halted.promise,
      now: () => this.#now(),
      emit: (event) => this.#emit(event),
      onTool: (event) => this.#tools.onTool(event),
      enqueue: (piece, waitForPrevious, place) => this.#enqueue(piece, this.#opened, waitForPrevious, place),
      llmName: () => this.#context.llm.name,
      filler: () => this.#context.tools?.filler,
      speakFiller: (text) => this.#enqueue(text, this.#opened, false, this.#answer.cycle.here),
      adopt: (session) => {
        this.#session = session;
      },
      fail: (code, message) => this.#fail(code, message),
    };
  }

  #now(): number {
    return Math.round((performance.now() - this.#t0) * 100) / 100;
  }

  #emit(event: PipelineEvent): void {
    this.#out(event);
  }

  get #stopped(): boolean {
    return this.#cancelled || this.#error !== undefined;
  }

  /** Stops the turn's work at once: the LLM request is aborted, the TTS session closed. */
  #stop(reason: unknown): void {
    this.#tools.stop();
    this.#halted.resolve();
    this.#abort.abort(reason);
    this.#session?.close();
    this.#ledger.releaseAll();
  }

  /** Records the first failure; later failures are its consequences. */
  #fail(code: string, message: string): void {
    if (this.#stopped) return;
    this.#error = { code, message };
    this.#stop(new Error(message));
  }

  #cancel(): void {
    if (this.#stopped) return;
    this.#cancelled = true;
    this.#trace.cut(errorMessage(this.#options.signal?.reason ?? 'cancelled'));
    this.#stop(this.#options.signal?.reason);
  }

  async run(): Promise<TurnResult> {
    const { request, signal } = this.#options;
    const { language, settings } = chooseTurnVoice(request, this.#context.defaults);
    this.#language = this.#ledger.language = language;
    if (signal?.aborted) this.#cancel();
    signal?.addEventListener('abort', () => this.#cancel(), { once: true });
    const { timeoutMs, streamLimitMs } = this.#options;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => this.#fail('timeout', `the turn took longer than ${timeoutMs} ms`), timeoutMs);
    const streamTimer =
      streamLimitMs === undefined
        ? undefined
        : setTimeout(
            () =>
              this.#fail(
                'stream_limit',
                "the stream reached its time limit (MAX_STREAM_SECONDS, inside AgentCore's 60 minutes); reconnect to go on",
              ),
            Math.max(0, streamLimitMs),
          );
    try {
      // The turn's trace span is active throughout: Strands' agent and model spans nest under it.
      const result = await this.#trace.run(() => this.#run(settings));
      await this.#opus?.idle(); // every event, done last, has reached the caller
      return result;
    } finally {
      clearTimeout(timer);
      clearTimeout(streamTimer);
      this.#tools.stop();
    }
  }

  async #run(settings: Required<VoiceSettings>): Promise<TurnResult> {
    this.#emit({
      type: 'start',
      request_id: this.#requestId,
      sample_rate: settings.sample_rate,
      format: settings.format,
      ...(this.#options.sessionId ? { session_id: this.#options.sessionId } : {}),
    });
    this.#ledger.setAudio(settings.format, settings.sample_rate);

    // Open the TTS session while the LLM thinks: its connection time hides behind the first token.
    const opened = this.#cancelled ? Promise.resolve(null) : openTurnSession(this.#parts, settings);
    this.#opened = opened;
    const pump = opened.then((session) => (session ? pumpSessionEvents(this.#parts, session) : undefined));
    const { answer, request } = this.#options;
    await this.#answer.read(
      this.#language,
      () => answer ?? oneShotAnswer(this.#context, request.prompt, this.#language),
      this.#abort.signal,
    );
    await this.#chain;
    const session = await opened;
    if (session && !this.#stopped) {
      try {
        await session.end();
      } catch (error) {
        this.#fail(ttsFailure(error), `TTS session failed: ${errorMessage(error)}`);
      }
    }
    session?.close();
    await pump;
    const llmError = this.#answer.llmError;
    if (llmError && !this.#stopped) this.#error = llmError;
    return this.#finish();
  }

  #enqueue(piece: string, opened: Promise<TtsSession | null>, waitForPrevious: boolean, place: SentencePlace): void {
    const readyMs = this.#now();
    const spoken = normalizeForSpeech(piece, { language: this.#language }).spoken.trim();
    if (spoken === '') return; // shown, not spoken (a code block, a table rule, emoji only)
    const { timing, audioDone } = this.#ledger.add(piece, spoken, readyMs, place);
    this.#trace.sentence(timing.id, { index: timing.index, characters: spoken.length, kind: place.kind });
    this.#chain = this.#chain.then(async () => {
      const session = this.#session ?? (await opened);
      if (!session || this.#stopped) return;
      timing.sentMs = this.#now();
      try {
        const traceparent = this.#trace.sentenceSent(timing.id);
        if (traceparent) session.speak(spoken, timing.id, { traceparent });
        else session.speak(spoken, timing.id);
      } catch (error) {
        this.#fail(ttsFailure(error), `TTS session failed: ${errorMessage(error)}`);
        return;
      }
      if (waitForPrevious) await audioDone;
    });
  }

  #finish(): TurnResult {
    const ledger = this.#ledger;
    const metrics = {
      first_token_ms: this.#answer.firstTokenMs,
      first_sentence_ms: ledger.firstSentenceMs,
      first_audio_ms: ledger.firstAudioMs,
      total_ms: this.#now(),
      sentences: ledger.spoken,
      audio_ms: Math.round(ledger.audioMs * 100) / 100,
    };
    this.#emit({ type: 'metrics', ...metrics });
    if (this.#error) this.#emit({ type: 'error', ...this.#error });
    this.#emit(this.#cancelled ? { type: 'done', cancelled: true } : { type: 'done' });
    this.#trace.end(this.#cancelled ? 'cancelled' : this.#error ? 'error' : 'done', this.#error?.code);
    return {
      requestId: this.#requestId,
      outcome: this.#cancelled ? 'cancelled' : this.#error ? 'failed' : 'completed',
      metrics,
      sentences: ledger.list,
      firstAudioAt: ledger.firstAudioAt,
      endedAt: performance.now(),
      ...(this.#error ? { error: this.#error } : {}),
    };
  }
}
