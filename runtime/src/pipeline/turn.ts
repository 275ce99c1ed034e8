// One turn of the voice agent: the agent loop's text deltas -> pieces -> speech text ->
// TtsSession.speak at once (never waiting for earlier audio, except under a benchmark's policy that waits)
// -> turn events in order: start, text..., then per sentence in audio order: sentence, audio...,
// sentence_end; `tool` events as tools run; and metrics, error (if any), done. At a tool boundary
// the text before the tool call is cut and spoken at once, a tool running with nothing playing
// may get a spoken filler, and the answer after the tool starts a fresh segmenter (its first piece
// cut early again: the caller is waiting). `words` events (when asked for) come inside their
// sentence; with format "opus" the PCM is re-encoded here, at the edge (src/audio). Cancellation
// (the signal) stops the agent loop and the TTS session at once.
//
// Its lifecycle has one owner, `run`: whatever throws wherever (the LLM's stream, the text front
// end, the TTS session, the caller's side, a timer), its `finally` closes what the turn opened (the
// filler's timer, the LLM request, the TTS session, also one still opening) and waits for the
// session's event pump, and only then is the one terminal event sent: `done`, after `error` when
// the turn failed, `done {cancelled: true}` when it was cancelled. How a turn ends is said in the
// contract's words: done, error, cancelled (docs/design/turn-lifecycle.md).
//
// Its parts: turn-voice.ts (voice, language, settings), answer-reader.ts (the LLM's stream),
// tool-filler.ts (tool events, filler), turn-session.ts (the TTS session, its pump, backpressure:
// runtime/README.md, "Slow callers"), turn-faults.ts (what each throw is called).
import { randomUUID } from 'node:crypto';
import { normalizeForSpeech } from '../text/index.ts';
import type { VoiceSettings } from '../tts/types.ts';
import { OpusTurnOutput } from '../audio/opus-output.ts';
import type { PolicyPlanner, TurnPolicy } from './policies.ts';
import { SentenceLedger, type SentencePlace } from './sentences.ts';
import { NoTurnTrace, type TurnTrace } from '../observability/index.ts';
import type { PipelineEvent, TurnContext, TurnFailure, TurnOptions, TurnResult } from './types.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import type { SpokenLanguage } from '@kokoro-speech/protocol';
import { AnswerReader, oneShotAnswer, type AnswerTurn } from './answer-reader.ts';
import { ToolFiller, type ToolTurn } from './tool-filler.ts';
import { TurnSession, type SessionTurn } from './turn-session.ts';
import { chooseTurnVoice } from './turn-voice.ts';
import { inTextFrontEnd, ttsFailureCode, turnFailure } from './turn-faults.ts';

export type {
  CallerFlow,
  AnswerEvent,
  AnswerSource,
  PipelineEvent,
  SentenceTiming,
  TurnContext,
  TurnFailure,
  TurnOptions,
  TurnResult,
  VoiceDefaults,
  WordTiming,
} from './types.ts';

/** How a turn ended early (one that runs to its end is `done`). */
type EarlyEnd = { as: 'error'; error: TurnFailure } | { as: 'cancelled'; reason: unknown };

export async function runTurn(context: TurnContext, options: TurnOptions): Promise<TurnResult> {
  return new Turn(context, options).run();
}

class Turn {
  readonly #context: TurnContext;
  readonly #options: TurnOptions;
  readonly #requestId: string;
  readonly #t0 = performance.now();
  /** The turn's LLM request (and a TTS open still in flight) is aborted when the turn ends. */
  readonly #abort = new AbortController();
  readonly #ledger: SentenceLedger;
  readonly #trace: TurnTrace;
  /** Sends utterances in order (under a waiting policy each link also waits for the previous audio). */
  #chain: Promise<void> = Promise.resolve();
  #end: EarlyEnd | null = null; // set once: later failures are the first one's consequences
  readonly #ended = Promise.withResolvers<void>();
  #over = false; // the terminal event was sent: nothing more reaches the caller
  readonly #answer: AnswerReader;
  readonly #tools: ToolFiller;
  readonly #tts: TurnSession;
  /** Where events go: straight to the caller, or through the Opus encoder (format "opus"). */
  readonly #out: (event: PipelineEvent) => void;
  readonly #opus: OpusTurnOutput | null;
  /** The answer's language: the voice's (protocol chooseLanguage; the server validated the pair). */
  #language: SpokenLanguage = 'en';

  constructor(context: TurnContext, options: TurnOptions) {
    this.#context = context;
    this.#options = options;
    this.#trace = options.trace ?? new NoTurnTrace();
    const opus = options.request.format === 'opus' ? new OpusTurnOutput(options.emit) : null;
    this.#opus = opus;
    this.#out = opus ? (event) => opus.handle(event) : options.emit;
    this.#requestId = options.requestId ?? randomUUID();
    const policy: TurnPolicy | PolicyPlanner =
      options.policy ?? (options.request.mode === 'batch' ? 'batch' : 'stream');
    const ledger = new SentenceLedger(
      (event) => this.#emit(event),
      () => this.#now(),
      { words: options.request.words === true },
    );
    this.#ledger = ledger;
    // What each part sees of the turn (whether it has ended, how to end it with an error), and
    // what that part needs more (its getter kept live).
    const turn = this;
    const state = {
      get ended() {
        return turn.#end !== null;
      },
      whenEnded: this.#ended.promise,
      endWithError: (error: TurnFailure) => this.#endEarly({ as: 'error', error }),
      trace: this.#trace,
      ledger,
      now: () => this.#now(),
      emit: (event: PipelineEvent) => this.#emit(event),
    };
    const part = <T extends object>(own: T) =>
      Object.defineProperties(own, Object.getOwnPropertyDescriptors(state)) as T & typeof state;
    type Own<P> = Omit<P, keyof typeof state>;
    this.#answer = new AnswerReader(
      part<Own<AnswerTurn>>({
        onTool: (event) => this.#tools.onTool(event),
        enqueue: (piece, waitForPrevious, place) => this.#enqueue(piece, waitForPrevious, place),
        llmName: () => context.llm.name,
      }),
      policy,
    );
    this.#tools = new ToolFiller(
      part<Own<ToolTurn>>({
        filler: () => context.tools?.filler,
        speakFiller: (text) => this.#guard(() => this.#enqueue(text, false, this.#answer.cycle.here), 'the filler'),
      }),
    );
    this.#tts = new TurnSession(
      part<Own<SessionTurn>>({ tts: context.tts, signal: this.#abort.signal, flow: options.flow, opus }),
    );
  }

  #now = (): number => Math.round((performance.now() - this.#t0) * 100) / 100;

  #emit(event: PipelineEvent): void {
    if (!this.#over) this.#out(event);
  }

  /** Ends the turn early, once: its LLM request is aborted and its TTS session closed at once. */
  #endEarly(end: EarlyEnd): void {
    if (this.#end) return;
    this.#end = end;
    if (end.as === 'cancelled') this.#trace.cut(errorMessage(end.reason ?? 'cancelled'));
    this.#stopWork(end.as === 'cancelled' ? end.reason : new Error(end.error.message));
  }

  /** Stops everything the turn opened (idempotent): the filler, the LLM request, the TTS session. */
  #stopWork(reason: unknown): void {
    this.#tools.stop();
    this.#ended.resolve();
    if (!this.#abort.signal.aborted) this.#abort.abort(reason);
    this.#tts.close();
    this.#ledger.releaseAll();
  }

  /** Runs a step called from outside the turn's own flow (a timer): a throw ends the turn with its cause. */
  #guard(step: () => void, where: string): void {
    try {
      step();
    } catch (error) {
      this.#endEarly({ as: 'error', error: turnFailure(error, where) });
    }
  }

  /** The one run path: whatever throws, the `finally` closes what the turn opened, then the
   *  terminal event is sent, once. Never rejects. */
  async run(): Promise<TurnResult> {
    const { request, signal } = this.#options;
    const { language, settings } = chooseTurnVoice(request, this.#context.defaults);
    this.#language = this.#ledger.language = language;
    const cancel = () => this.#endEarly({ as: 'cancelled', reason: signal?.reason });
    const limit = (ms: number | undefined, error: TurnFailure) =>
      ms === undefined ? undefined : setTimeout(() => this.#endEarly({ as: 'error', error }), Math.max(0, ms));
    const { timeoutMs, streamLimitMs } = this.#options;
    const timer = limit(timeoutMs, { code: 'timeout', message: `the turn took longer than ${timeoutMs} ms` });
    const streamTimer = limit(streamLimitMs, {
      code: 'stream_limit',
      message:
        "the stream reached its time limit (MAX_STREAM_SECONDS, inside AgentCore's 60 minutes); reconnect to go on",
    });
    try {
      if (signal?.aborted) cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      // The turn's trace span is active throughout: Strands' agent and model spans nest under it.
      await this.#trace.run(() => this.#speak(settings));
    } catch (error) {
      this.#endEarly({ as: 'error', error: turnFailure(error, 'the turn') });
    } finally {
      clearTimeout(timer);
      clearTimeout(streamTimer);
      signal?.removeEventListener('abort', cancel);
      try {
        this.#stopWork(new Error('the turn is over'));
        await this.#tts.closed();
      } catch (error) {
        this.#endEarly({ as: 'error', error: turnFailure(error, 'closing the turn') });
      }
    }
    const result = this.#finish();
    await this.#opus?.idle(); // every event, done last, has reached the caller
    return result;
  }

  async #speak(settings: Required<VoiceSettings>): Promise<void> {
    this.#emit({
      type: 'start',
      request_id: this.#requestId,
      sample_rate: settings.sample_rate,
      format: settings.format,
      ...(this.#options.sessionId ? { session_id: this.#options.sessionId } : {}),
    });
    this.#ledger.setAudio(settings.format, settings.sample_rate);
    // Open the TTS session while the LLM thinks: its connection time hides behind the first token.
    if (this.#end === null) this.#tts.open(settings);
    const { answer, request } = this.#options;
    await this.#answer.read(
      this.#language,
      () => answer ?? oneShotAnswer(this.#context, request.prompt, this.#language),
      this.#abort.signal,
    );
    await this.#chain;
    const session = await this.#tts.opened;
    if (session && this.#end === null) {
      try {
        await session.end();
      } catch (error) {
        const message = `TTS session failed: ${errorMessage(error)}`;
        this.#endEarly({ as: 'error', error: { code: ttsFailureCode(error), message } });
      }
    }
    await this.#tts.closed();
    // An LLM failure is reported after the audio of the text already shown.
    const llmError = this.#answer.llmError;
    if (llmError) this.#endEarly({ as: 'error', error: llmError });
  }

  #enqueue(piece: string, waitForPrevious: boolean, place: SentencePlace): void {
    const readyMs = this.#now();
    const normalize = this.#context.normalize ?? ((text, language) => normalizeForSpeech(text, { language }).spoken);
    const spoken = inTextFrontEnd('preparing a sentence for speech', () => normalize(piece, this.#language)).trim();
    if (spoken === '') return; // shown, not spoken (a code block, a table rule, emoji only)
    const { timing, audioDone } = this.#ledger.add(piece, spoken, readyMs, place);
    this.#trace.sentence(timing.id, { index: timing.index, characters: spoken.length, kind: place.kind });
    this.#chain = this.#chain.then(async () => {
      const session = this.#tts.now ?? (await this.#tts.opened);
      if (!session || this.#end) return;
      timing.sentMs = this.#now();
      try {
        const traceparent = this.#trace.sentenceSent(timing.id);
        if (traceparent) session.speak(spoken, timing.id, { traceparent });
        else session.speak(spoken, timing.id);
      } catch (error) {
        const message = `TTS session failed: ${errorMessage(error)}`;
        this.#endEarly({ as: 'error', error: { code: ttsFailureCode(error), message } });
        return;
      }
      if (waitForPrevious) await audioDone;
    });
  }

  /** The terminal events, once: metrics, `error` if the turn failed, `done`. */
  #finish(): TurnResult {
    const ledger = this.#ledger;
    const end = this.#end;
    const error = end?.as === 'error' ? end.error : undefined;
    const cancelled = end?.as === 'cancelled';
    const metrics = {
      first_token_ms: this.#answer.firstTokenMs,
      first_sentence_ms: ledger.firstSentenceMs,
      first_audio_ms: ledger.firstAudioMs,
      total_ms: this.#now(),
      sentences: ledger.spoken,
      audio_ms: Math.round(ledger.audioMs * 100) / 100,
    };
    const terminal: PipelineEvent[] = [
      { type: 'metrics', ...metrics },
      ...(error ? [{ type: 'error' as const, ...error }] : []),
      cancelled ? { type: 'done', cancelled: true } : { type: 'done' },
    ];
    for (const event of terminal) {
      try {
        this.#emit(event);
      } catch {
        // The caller's side threw (a bug there, logged by the server): the rest is still sent.
      }
    }
    this.#over = true;
    this.#trace.end(end?.as ?? 'done', error?.code);
    return {
      requestId: this.#requestId,
      outcome: cancelled ? 'cancelled' : error ? 'failed' : 'completed',
      metrics,
      sentences: ledger.list,
      firstAudioAt: ledger.firstAudioAt,
      endedAt: performance.now(),
      ...(error ? { error } : {}),
    };
  }
}
