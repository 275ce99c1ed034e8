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
import { randomUUID } from 'node:crypto';
import { LlmError } from '../llm/errors.ts';
import { normalizeForSpeech } from '../text/index.ts';
import { ShownTextStream } from '../text/inline-display.ts';
import type { TtsSession, VoiceSettings } from '../tts/types.ts';
import { TtsTransportError } from '../tts/types.ts';
import { agentAnswer } from '../conversation/answer.ts';
import { createAgent } from '../conversation/agents.ts';
import { OpusTurnOutput } from '../audio/opus-output.ts';
import { planFor, type PolicyPlan, type TurnPolicy } from './policies.ts';
import { SentenceLedger, type SentencePlace } from './sentences.ts';
import { NoTurnTrace, type TurnTrace } from '../observability/index.ts';
import type { AnswerEvent, AnswerSource, PipelineEvent, TurnContext, TurnOptions, TurnResult } from './types.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { chooseLanguage, voiceProblem, type SpokenLanguage } from '@kokoro-speech/protocol';
import { systemPromptFor } from '../llm/language-prompt.ts';

/** PCM waiting for the Opus encoder at most before the turn stops pulling audio (~11 s at 24 kHz). */
export const OPUS_BACKLOG_BYTES = 512 * 1024;

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

type Failure = { code: string; message: string };

/** The turn's error code for a TTS failure: the service refused us (`tts_overloaded`), or it is unavailable. */
const ttsFailure = (error: unknown) =>
  error instanceof TtsTransportError && error.code === 'overloaded' ? 'tts_overloaded' : 'tts_unavailable';

export async function runTurn(context: TurnContext, options: TurnOptions): Promise<TurnResult> {
  return new Turn(context, options).run();
}

/** A fresh agent on the context's model and tools, for one prompt (no memory). */
export function oneShotAnswer(context: TurnContext, prompt: string, language: SpokenLanguage = 'en'): AnswerSource {
  const systemPrompt = systemPromptFor(context.systemPrompt, language);
  return async function* (signal) {
    const agent = await createAgent({
      model: context.llm.model,
      ...(systemPrompt ? { systemPrompt } : {}),
      ...(context.tools ? { tools: context.tools } : {}),
    });
    yield* agentAnswer(agent, prompt, signal, context.llm, undefined, context.llmTimeouts);
  };
}

/** One model call's text: places its pieces (offsets in that text, in order). */
class CycleText {
  text = '';
  #cursor = 0;
  readonly cycle: number;
  constructor(cycle: number) {
    this.cycle = cycle;
  }
  place(piece: string): SentencePlace {
    const at = this.text.indexOf(piece, this.#cursor);
    const textStart = at >= 0 ? at : this.#cursor;
    const textEnd = Math.min(this.text.length, textStart + piece.length);
    this.#cursor = textEnd;
    return { kind: 'answer', cycle: this.cycle, textStart, textEnd };
  }
  get here(): SentencePlace {
    return { kind: 'filler', cycle: this.cycle, textStart: this.#cursor, textEnd: this.#cursor };
  }
}

class Turn {
  readonly #context: TurnContext;
  readonly #options: TurnOptions;
  readonly #requestId: string;
  readonly #policy: TurnPolicy;
  readonly #t0 = performance.now();
  readonly #abort = new AbortController();
  readonly #ledger: SentenceLedger;
  #session: TtsSession | null = null;
  /** Sends utterances in order; under `reference` each link also waits for the previous audio. */
  #chain: Promise<void> = Promise.resolve();
  #error: Failure | undefined;
  /** An LLM failure: reported after the audio of the text already shown. */
  #llmError: Failure | undefined;
  #cancelled = false;
  /** Settles when the turn stops (failed or cancelled): waits for the caller end with it. */
  readonly #halted = Promise.withResolvers<void>();
  #firstTokenMs: number | null = null;
  /** Tools running now, by tool use id. */
  readonly #tools = new Map<string, { name: string; startedMs: number }>();
  #fillerTimer: NodeJS.Timeout | undefined;
  /** The filler was spoken (or is not wanted) for the tools running now. */
  #fillerDone = false;
  #cycle = new CycleText(0);
  #opened: Promise<TtsSession | null> = Promise.resolve(null);
  /** Where events go: straight to the caller, or through the Opus encoder (format "opus"). */
  readonly #out: (event: PipelineEvent) => void;
  readonly #opus: OpusTurnOutput | null;
  /** The answer's language: the voice's (protocol chooseLanguage; the server validated the pair). */
  #language: SpokenLanguage = 'en';
  readonly #trace: TurnTrace;

  constructor(context: TurnContext, options: TurnOptions) {
    this.#context = context;
    this.#options = options;
    this.#trace = options.trace ?? new NoTurnTrace();
    const opus = options.request.format === 'opus' ? new OpusTurnOutput(options.emit) : null;
    this.#opus = opus;
    this.#out = opus ? (event) => opus.handle(event) : options.emit;
    this.#requestId = options.requestId ?? randomUUID();
    this.#policy = options.policy ?? (options.request.mode === 'batch' ? 'batch' : 'stream');
    this.#ledger = new SentenceLedger(
      (event) => this.#emit(event),
      () => this.#now(),
      { words: options.request.words === true },
    );
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
    clearTimeout(this.#fillerTimer);
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
    const { defaults } = this.#context;
    let chosen: { voice: string; language: SpokenLanguage };
    try {
      chosen = chooseLanguage(request, defaults.voice);
    } catch {
      // Not validated (a direct runTurn caller): the voice speaks, the container refuses what it cannot.
      chosen = { voice: request.voice ?? defaults.voice, language: 'en' };
    }
    this.#language = this.#ledger.language = chosen.language;
    const settings = {
      voice: chosen.voice,
      speed: request.speed ?? defaults.speed,
      // Opus is made here from PCM: the TTS session always sends PCM for it.
      format: request.format === 'opus' ? 'pcm_s16le' : (request.format ?? defaults.format),
      sample_rate: request.sample_rate ?? defaults.sample_rate,
    };
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
      clearTimeout(this.#fillerTimer);
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
    const opened = this.#cancelled ? Promise.resolve(null) : this.#openSession(settings);
    this.#opened = opened;
    const pump = opened.then((session) => (session ? this.#pumpEvents(session) : undefined));
    await this.#readAnswer(opened);
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
    if (this.#llmError && !this.#stopped) this.#error = this.#llmError;
    return this.#finish();
  }

  /** Streams the agent loop's answer into text and tool events and utterances, as the policy says. */
  async #readAnswer(opened: Promise<TtsSession | null>): Promise<void> {
    let plan = planFor(this.#policy, this.#language);
    /** Under `batch`, each model call's whole text, cut and sent once the answer is complete. */
    const batches: CycleText[] = [];
    const enqueue = (pieces: string[], cycle: CycleText = this.#cycle, p: PolicyPlan = plan) => {
      for (const piece of pieces) this.#enqueue(piece, opened, p.waitForPreviousAudio, cycle.place(piece));
    };
    const endCycle = () => {
      if (plan.wholeAnswerFirst) batches.push(this.#cycle);
      else enqueue(plan.splitter.flush());
    };
    // `text` events show inline pronunciations as their word (the sentences still carry them).
    const shown = new ShownTextStream();
    const showText = (delta: string) => {
      if (delta) this.#emit({ type: 'text', delta });
    };
    try {
      if (this.#stopped) return;
      const { request } = this.#options;
      const source = this.#options.answer ?? oneShotAnswer(this.#context, request.prompt, this.#language);
      for await (const event of source(this.#abort.signal)) {
        switch (event.type) {
          case 'text':
            if (this.#firstTokenMs === null) {
              this.#firstTokenMs = this.#now();
              this.#trace.firstToken();
            }
            showText(shown.push(event.delta));
            this.#cycle.text += event.delta;
            if (!plan.wholeAnswerFirst) enqueue(plan.splitter.push(event.delta));
            break;
          case 'tool_call':
            // The text before a tool call is complete: speak it now rather than hold a half sentence.
            showText(shown.flush());
            if (!plan.wholeAnswerFirst) enqueue(plan.splitter.flush());
            break;
          case 'tool_start':
          case 'tool_end':
            this.#onTool(event);
            break;
          case 'cycle':
            endCycle();
            // The answer after a tool: a fresh segmenter, so its first piece is cut early again.
            plan = planFor(this.#policy, this.#language);
            this.#cycle = new CycleText(this.#cycle.cycle + 1);
            break;
        }
      }
    } catch (error) {
      if (this.#stopped) return;
      // The text shown so far is still spoken (below); the error follows its audio.
      this.#llmError =
        error instanceof LlmError
          ? { code: error.code, message: error.message }
          : { code: 'llm_error', message: `${this.#context.llm.name} LLM failed: ${errorMessage(error)}` };
    }
    if (this.#stopped) return;
    showText(shown.flush());
    endCycle();
    for (const cycle of batches) {
      const whole = planFor(this.#policy, this.#language);
      enqueue([...whole.splitter.push(cycle.text), ...whole.splitter.flush()], cycle, whole);
    }
  }

  /** A tool started or ended: its `tool` event, and the filler while tools run. */
  #onTool(event: Extract<AnswerEvent, { type: 'tool_start' | 'tool_end' }>): void {
    const now = this.#now();
    this.#trace.tool(event);
    if (event.type === 'tool_start') {
      this.#tools.set(event.id, { name: event.name, startedMs: now });
      this.#emit({ type: 'tool', id: event.id, name: event.name, state: 'started', started_ms: now });
      if (this.#tools.size === 1) {
        this.#fillerDone = false;
        const filler = this.#context.tools?.filler;
        if (filler) this.#armFiller(filler.afterMs);
      }
      return;
    }
    const started = this.#tools.get(event.id)?.startedMs ?? now;
    this.#tools.delete(event.id);
    this.#emit({
      type: 'tool',
      id: event.id,
      name: event.name,
      state: 'ended',
      started_ms: started,
      ended_ms: now,
      duration_ms: Math.round((now - started) * 100) / 100,
      ...(event.error === undefined ? {} : { error: event.error }),
    });
    if (this.#tools.size === 0) clearTimeout(this.#fillerTimer);
  }

  #armFiller(ms: number): void {
    clearTimeout(this.#fillerTimer);
    this.#fillerTimer = setTimeout(() => this.#maybeFiller(), Math.max(0, ms));
  }

  /** Speaks the filler if tools still run and nothing is playing; else looks again when it ends. */
  #maybeFiller(): void {
    const filler = this.#context.tools?.filler;
    if (!filler || this.#stopped || this.#tools.size === 0 || this.#fillerDone) return;
    if (this.#ledger.audioPending) return this.#armFiller(50); // audio still to come: it will play
    const end = this.#ledger.playbackEnd();
    const now = performance.now();
    if (end !== null && end > now) return this.#armFiller(end - now + 1);
    this.#fillerDone = true;
    this.#enqueue(filler.text, this.#opened, false, this.#cycle.here);
  }

  async #openSession(settings: Required<VoiceSettings>): Promise<TtsSession | null> {
    try {
      const session = await this.#context.tts.open(settings, this.#abort.signal, this.#trace.tts);
      if (this.#stopped) {
        session.close();
        return null;
      }
      this.#session = session;
      const { voices, voice_info } = await session.ready;
      const language = voice_info?.find((v) => v.id === settings.voice)?.language;
      if (language) this.#trace.annotate({ 'kokoro.language': language });
      const problem = voices.length > 0 ? voiceProblem(settings.voice, voices) : null;
      if (problem) this.#fail(problem.code, `${problem.message}; available: ${voices.join(', ')}`);
      return session;
    } catch (error) {
      if (!this.#cancelled) this.#fail(ttsFailure(error), `cannot open a TTS session: ${errorMessage(error)}`);
      return null;
    }
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

  async #pumpEvents(session: TtsSession): Promise<void> {
    try {
      this.#ledger.sampleRate = (await session.ready).sample_rate;
      for await (const event of session.events()) {
        if (this.#stopped) break;
        this.#trace.ttsEvent(event);
        this.#ledger.onTtsEvent(event);
        if (event.type === 'audio' && this.#behind) await this.#catchUp(session);
      }
    } catch (error) {
      if (!this.#cancelled) {
        const code = error instanceof TtsTransportError ? error.code : 'internal';
        this.#fail(ttsFailure(error), `TTS stream failed (${code}): ${errorMessage(error)}`);
      }
    } finally {
      this.#ledger.releaseAll();
    }
  }

  /** The caller, or the Opus encoder before it, has more than enough audio waiting. */
  get #behind(): boolean {
    return this.#options.flow?.behind === true || (this.#opus?.backlogBytes ?? 0) > OPUS_BACKLOG_BYTES;
  }

  /** Waits (with the TTS session paused) until the caller and the encoder have caught up. */
  async #catchUp(session: TtsSession): Promise<void> {
    session.pause?.();
    try {
      while (!this.#stopped && this.#behind) {
        const flow = this.#options.flow;
        const waiting = flow?.behind ? flow.caughtUp() : this.#opus!.drained(OPUS_BACKLOG_BYTES / 2);
        await Promise.race([waiting, this.#halted.promise]);
      }
    } finally {
      session.resume?.();
    }
  }

  #finish(): TurnResult {
    const ledger = this.#ledger;
    const metrics = {
      first_token_ms: this.#firstTokenMs,
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
