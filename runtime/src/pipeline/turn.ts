// One turn of the voice agent: LLM text deltas -> pieces -> speech text -> TtsSession.speak at
// once (never waiting for earlier audio, except under the `reference` policy) -> turn events in
// order: start, text..., then per sentence in audio order: sentence, audio..., sentence_end; and
// metrics, error (if any), done. Cancellation (the signal) stops the LLM stream and the TTS
// session at once.
import { randomUUID } from 'node:crypto';
import { LlmError } from '../llm/errors.ts';
import { normalizeForSpeech } from '../text/index.ts';
import type { TtsSession, VoiceSettings } from '../tts/types.ts';
import { TtsTransportError } from '../tts/types.ts';
import { planFor, type TurnPolicy } from './policies.ts';
import { SentenceLedger } from './sentences.ts';
import type { PipelineEvent, TurnContext, TurnOptions, TurnResult } from './types.ts';

export type { PipelineEvent, SentenceTiming, TurnContext, TurnOptions, TurnResult, VoiceDefaults } from './types.ts';

type Failure = { code: string; message: string };

/** The turn's error code for a TTS failure: the service refused us (`tts_overloaded`), or it is unavailable. */
const ttsFailure = (error: unknown) =>
  error instanceof TtsTransportError && error.code === 'overloaded' ? 'tts_overloaded' : 'tts_unavailable';

export async function runTurn(context: TurnContext, options: TurnOptions): Promise<TurnResult> {
  return new Turn(context, options).run();
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
  #firstTokenMs: number | null = null;

  constructor(context: TurnContext, options: TurnOptions) {
    this.#context = context;
    this.#options = options;
    this.#requestId = options.requestId ?? randomUUID();
    this.#policy = options.policy ?? (options.request.mode === 'batch' ? 'batch' : 'stream');
    this.#ledger = new SentenceLedger(
      (event) => this.#emit(event),
      () => this.#now(),
    );
  }

  #now(): number {
    return Math.round((performance.now() - this.#t0) * 100) / 100;
  }

  #emit(event: PipelineEvent): void {
    this.#options.emit(event);
  }

  get #stopped(): boolean {
    return this.#cancelled || this.#error !== undefined;
  }

  /** Stops the turn's work at once: the LLM request is aborted, the TTS session closed. */
  #stop(reason: unknown): void {
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
    this.#stop(this.#options.signal?.reason);
  }

  async run(): Promise<TurnResult> {
    const { request, signal } = this.#options;
    const { defaults } = this.#context;
    const settings = {
      voice: request.voice ?? defaults.voice,
      speed: request.speed ?? defaults.speed,
      format: request.format ?? defaults.format,
      sample_rate: request.sample_rate ?? defaults.sample_rate,
    };
    if (signal?.aborted) this.#cancel();
    signal?.addEventListener('abort', () => this.#cancel(), { once: true });
    const { timeoutMs } = this.#options;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => this.#fail('timeout', `the turn took longer than ${timeoutMs} ms`), timeoutMs);
    try {
      return await this.#run(settings);
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(settings: Required<VoiceSettings>): Promise<TurnResult> {
    this.#emit({
      type: 'start',
      request_id: this.#requestId,
      sample_rate: settings.sample_rate,
      format: settings.format,
    });

    // Open the TTS session while the LLM thinks: its connection time hides behind the first token.
    const opened = this.#cancelled ? Promise.resolve(null) : this.#openSession(settings);
    const pump = opened.then((session) => (session ? this.#pumpEvents(session) : undefined));
    await this.#readAnswer(opened);
    await this.#chain;
    const session = await opened;
    if (session && !this.#stopped) {
      try {
        await session.end();
      } catch (error) {
        this.#fail(ttsFailure(error), `TTS session failed: ${describe(error)}`);
      }
    }
    session?.close();
    await pump;
    if (this.#llmError && !this.#stopped) this.#error = this.#llmError;
    return this.#finish();
  }

  /** Streams the LLM's answer into text events and utterances, as the policy says. */
  async #readAnswer(opened: Promise<TtsSession | null>): Promise<void> {
    const plan = planFor(this.#policy);
    const enqueue = (pieces: string[]) => {
      for (const piece of pieces) this.#enqueue(piece, opened, plan.waitForPreviousAudio);
    };
    let answer = '';
    try {
      if (this.#stopped) return;
      const { llm, systemPrompt } = this.#context;
      for await (const delta of llm.stream(this.#options.request.prompt, {
        signal: this.#abort.signal,
        ...(systemPrompt ? { systemPrompt } : {}),
      })) {
        this.#firstTokenMs ??= this.#now();
        this.#emit({ type: 'text', delta });
        if (plan.wholeAnswerFirst) answer += delta;
        else enqueue(plan.splitter.push(delta));
      }
    } catch (error) {
      if (this.#stopped) return;
      // The text shown so far is still spoken (below); the error follows its audio.
      this.#llmError =
        error instanceof LlmError
          ? { code: error.code, message: error.message }
          : { code: 'llm_error', message: `${this.#context.llm.name} LLM failed: ${describe(error)}` };
    }
    if (this.#stopped) return;
    if (plan.wholeAnswerFirst) enqueue(plan.splitter.push(answer));
    enqueue(plan.splitter.flush());
  }

  async #openSession(settings: Required<VoiceSettings>): Promise<TtsSession | null> {
    try {
      const session = await this.#context.tts.open(settings, this.#abort.signal);
      if (this.#stopped) {
        session.close();
        return null;
      }
      this.#session = session;
      const { voices } = await session.ready;
      if (voices.length > 0 && !voices.includes(settings.voice)) {
        const some = voices.slice(0, 12).join(', ');
        this.#fail(
          'unknown_voice',
          `unknown voice ${JSON.stringify(settings.voice)}; available: ${some}${voices.length > 12 ? ', ...' : ''}`,
        );
      }
      return session;
    } catch (error) {
      if (!this.#cancelled) this.#fail(ttsFailure(error), `cannot open a TTS session: ${describe(error)}`);
      return null;
    }
  }

  #enqueue(piece: string, opened: Promise<TtsSession | null>, waitForPrevious: boolean): void {
    const readyMs = this.#now();
    const spoken = normalizeForSpeech(piece).spoken.trim();
    if (spoken === '') return; // shown, not spoken (a code block, a table rule, emoji only)
    const { timing, audioDone } = this.#ledger.add(piece, spoken, readyMs);
    this.#chain = this.#chain.then(async () => {
      const session = this.#session ?? (await opened);
      if (!session || this.#stopped) return;
      timing.sentMs = this.#now();
      try {
        session.speak(spoken, timing.id);
      } catch (error) {
        this.#fail(ttsFailure(error), `TTS session failed: ${describe(error)}`);
        return;
      }
      if (waitForPrevious) await audioDone;
    });
  }

  async #pumpEvents(session: TtsSession): Promise<void> {
    try {
      for await (const event of session.events()) {
        if (this.#stopped) break;
        this.#ledger.onTtsEvent(event);
      }
    } catch (error) {
      if (!this.#cancelled) {
        const code = error instanceof TtsTransportError ? error.code : 'internal';
        this.#fail(ttsFailure(error), `TTS stream failed (${code}): ${describe(error)}`);
      }
    } finally {
      this.#ledger.releaseAll();
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
    return {
      requestId: this.#requestId,
      outcome: this.#cancelled ? 'cancelled' : this.#error ? 'failed' : 'completed',
      metrics,
      sentences: ledger.list,
      ...(this.#error ? { error: this.#error } : {}),
    };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
