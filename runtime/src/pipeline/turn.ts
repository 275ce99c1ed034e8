// One turn of the voice agent: LLM text deltas -> pieces -> speech text -> TtsSession.speak at
// once (never waiting for earlier audio, except under the `reference` policy) -> turn events in
// order: start, text..., then per sentence in audio order: sentence, audio..., sentence_end; and
// metrics, error (if any), done. Cancellation (the signal) stops the LLM stream and the TTS
// session at once.
import { randomUUID } from 'node:crypto';
import type { AudioFormat, SampleRate } from '@kokoro-speech/container/protocol';
import type { LlmProvider } from '../llm/types.ts';
import { LlmError } from '../llm/errors.ts';
import { normalizeForSpeech } from '../text/index.ts';
import type { TtsSession, TtsTransport } from '../tts/types.ts';
import { TtsTransportError } from '../tts/types.ts';
import type { MetricsEvent, TurnEvent, TurnRequest } from '../server/events.ts';
import { planFor, type TurnPolicy } from './policies.ts';

/** Turn events as the pipeline emits them: audio carries bytes (SSE base64-encodes them, WS sends binary). */
export type PipelineEvent =
  | Exclude<TurnEvent, { type: 'audio' }>
  | { type: 'audio'; id: string; seq: number; data: Uint8Array };

export interface VoiceDefaults {
  voice: string;
  speed: number;
  format: AudioFormat;
  sample_rate: SampleRate;
}

export interface TurnContext {
  llm: LlmProvider;
  tts: TtsTransport;
  defaults: VoiceDefaults;
  systemPrompt?: string;
}

export interface TurnOptions {
  request: TurnRequest;
  /** Called synchronously for each event, in order. */
  emit(event: PipelineEvent): void;
  /** Aborting cancels the turn (caller gone, barge-in). */
  signal?: AbortSignal;
  /** Default: the request's mode ('stream' unless 'batch'). */
  policy?: TurnPolicy;
  requestId?: string;
}

/** Per-sentence timings in ms since the turn started (for the benchmark and logs). */
export interface SentenceTiming {
  id: string;
  index: number;
  text: string;
  spoken: string;
  /** The piece was complete in the token stream. */
  readyMs: number;
  /** speak() was called. */
  sentMs?: number;
  firstAudioMs?: number;
  synthesisMs?: number;
  /** The container's wait from receiving the text to starting the model (includes phonemisation). */
  queueMs?: number;
  durationMs?: number;
  samples?: number;
}

export interface TurnResult {
  requestId: string;
  outcome: 'completed' | 'cancelled' | 'failed';
  metrics: Omit<MetricsEvent, 'type'>;
  sentences: SentenceTiming[];
  error?: { code: string; message: string };
}

interface Waiter {
  promise: Promise<void>;
  resolve(): void;
}
function waiter(): Waiter {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

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
  readonly #sentences = new Map<string, SentenceTiming>();
  readonly #audioDone = new Map<string, Waiter>();
  #session: TtsSession | null = null;
  #chain: Promise<void> = Promise.resolve();
  #error: { code: string; message: string } | undefined;
  #cancelled = false;
  #firstTokenMs: number | null = null;
  #firstSentenceMs: number | null = null;
  #firstAudioMs: number | null = null;
  #audioMs = 0;
  #spokenCount = 0;
  #seq = 0;

  constructor(context: TurnContext, options: TurnOptions) {
    this.#context = context;
    this.#options = options;
    this.#requestId = options.requestId ?? randomUUID();
    this.#policy = options.policy ?? (options.request.mode === 'batch' ? 'batch' : 'stream');
  }

  #now(): number {
    return Math.round((performance.now() - this.#t0) * 100) / 100;
  }

  #emit(event: PipelineEvent): void {
    this.#options.emit(event);
  }

  /** Records the first failure and stops the turn's work; later failures are consequences. */
  #fail(code: string, message: string): void {
    if (this.#error || this.#cancelled) return;
    this.#error = { code, message };
    this.#abort.abort(new Error(message));
    this.#session?.close();
    for (const w of this.#audioDone.values()) w.resolve();
  }

  #cancel(): void {
    if (this.#cancelled || this.#error) return;
    this.#cancelled = true;
    this.#abort.abort(this.#options.signal?.reason);
    this.#session?.close();
    for (const w of this.#audioDone.values()) w.resolve();
  }

  async run(): Promise<TurnResult> {
    const { request } = this.#options;
    const { defaults, llm, tts } = this.#context;
    const settings = {
      voice: request.voice ?? defaults.voice,
      speed: request.speed ?? defaults.speed,
      format: request.format ?? defaults.format,
      sample_rate: request.sample_rate ?? defaults.sample_rate,
    };
    const signal = this.#options.signal;
    if (signal?.aborted) this.#cancel();
    signal?.addEventListener('abort', () => this.#cancel(), { once: true });
    this.#emit({ type: 'start', request_id: this.#requestId, sample_rate: settings.sample_rate, format: settings.format });

    // Open the TTS session while the LLM thinks: its connection time hides behind the first token.
    const opened = this.#cancelled ? Promise.resolve(null) : this.#openSession(settings);
    const pump = opened.then((session) => (session ? this.#pumpEvents(session) : undefined));

    const plan = planFor(this.#policy);
    const enqueue = (pieces: string[]) => {
      for (const piece of pieces) this.#enqueue(piece, opened, plan.waitForPreviousAudio);
    };
    let answer = '';
    try {
      if (!this.#cancelled) {
        const stream = llm.stream(request.prompt, {
          signal: this.#abort.signal,
          ...(this.#context.systemPrompt ? { systemPrompt: this.#context.systemPrompt } : {}),
        });
        for await (const delta of stream) {
          this.#firstTokenMs ??= this.#now();
          this.#emit({ type: 'text', delta });
          if (plan.wholeAnswerFirst) answer += delta;
          else enqueue(plan.splitter.push(delta));
        }
      }
    } catch (error) {
      if (!this.#cancelled && !this.#error) {
        // The text shown so far is still spoken (below); the error follows its audio.
        this.#llmError = error instanceof LlmError ? { code: error.code, message: error.message } : {
          code: 'llm_error',
          message: `${llm.name} LLM failed: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    if (!this.#cancelled && !this.#error) {
      if (plan.wholeAnswerFirst) enqueue(plan.splitter.push(answer));
      enqueue(plan.splitter.flush());
    }
    await this.#chain;
    const session = await opened;
    if (session && !this.#cancelled && !this.#error) {
      try {
        await session.end();
      } catch (error) {
        this.#fail('tts_unavailable', `TTS session failed: ${describe(error)}`);
      }
    }
    session?.close();
    await pump;
    if (this.#llmError && !this.#error && !this.#cancelled) this.#error = this.#llmError;

    const metrics = {
      first_token_ms: this.#firstTokenMs,
      first_sentence_ms: this.#firstSentenceMs,
      first_audio_ms: this.#firstAudioMs,
      total_ms: this.#now(),
      sentences: this.#spokenCount,
      audio_ms: Math.round(this.#audioMs * 100) / 100,
    };
    this.#emit({ type: 'metrics', ...metrics });
    if (this.#error) this.#emit({ type: 'error', ...this.#error });
    this.#emit(this.#cancelled ? { type: 'done', cancelled: true } : { type: 'done' });
    return {
      requestId: this.#requestId,
      outcome: this.#cancelled ? 'cancelled' : this.#error ? 'failed' : 'completed',
      metrics,
      sentences: [...this.#sentences.values()],
      ...(this.#error ? { error: this.#error } : {}),
    };
  }

  #llmError: { code: string; message: string } | undefined;

  async #openSession(settings: { voice: string; speed: number; format: AudioFormat; sample_rate: SampleRate }): Promise<TtsSession | null> {
    try {
      const session = await this.#context.tts.open(settings, this.#abort.signal);
      if (this.#cancelled || this.#error) {
        session.close();
        return null;
      }
      this.#session = session;
      const { voices } = await session.ready;
      if (voices.length > 0 && !voices.includes(settings.voice)) {
        const some = voices.slice(0, 12).join(', ');
        this.#fail('unknown_voice', `unknown voice ${JSON.stringify(settings.voice)}; available: ${some}${voices.length > 12 ? ', ...' : ''}`);
      }
      return session;
    } catch (error) {
      if (!this.#cancelled) this.#fail('tts_unavailable', `cannot open a TTS session: ${describe(error)}`);
      return null;
    }
  }

  #enqueue(piece: string, opened: Promise<TtsSession | null>, waitForPrevious: boolean): void {
    const readyMs = this.#now();
    const spoken = normalizeForSpeech(piece).spoken.trim();
    if (spoken === '') return; // shown, not spoken (a code block, a table rule, emoji only)
    const index = this.#sentences.size;
    const id = `s${index}`;
    this.#firstSentenceMs ??= readyMs;
    const timing: SentenceTiming = { id, index, text: piece, spoken, readyMs };
    this.#sentences.set(id, timing);
    const done = waiter();
    this.#audioDone.set(id, done);
    this.#chain = this.#chain.then(async () => {
      const session = this.#session ?? (await opened);
      if (!session || this.#cancelled || this.#error) return;
      timing.sentMs = this.#now();
      try {
        session.speak(spoken, id);
      } catch (error) {
        this.#fail('tts_unavailable', `TTS session failed: ${describe(error)}`);
        return;
      }
      if (waitForPrevious) await done.promise;
    });
  }

  async #pumpEvents(session: TtsSession): Promise<void> {
    try {
      for await (const event of session.events()) {
        if (this.#cancelled || this.#error) break;
        if (event.type === 'reconnected' || (event.type !== 'error' && !this.#sentences.has(event.id))) continue;
        switch (event.type) {
          case 'audio_start': {
            const t = this.#sentences.get(event.id)!;
            this.#seq = 0;
            this.#emit({ type: 'sentence', id: t.id, index: t.index, text: t.text, spoken: t.spoken, text_ms: t.readyMs });
            break;
          }
          case 'audio': {
            const t = this.#sentences.get(event.id)!;
            const now = this.#now();
            t.firstAudioMs ??= now;
            this.#firstAudioMs ??= now;
            this.#emit({ type: 'audio', id: event.id, seq: this.#seq++, data: event.data });
            break;
          }
          case 'audio_end': {
            const t = this.#sentences.get(event.id)!;
            Object.assign(t, { synthesisMs: event.synthesis_ms, queueMs: event.queue_ms, durationMs: event.duration_ms, samples: event.samples });
            this.#audioMs += event.duration_ms;
            this.#spokenCount++;
            this.#emit({ type: 'sentence_end', id: event.id, duration_ms: event.duration_ms, synthesis_ms: event.synthesis_ms });
            this.#audioDone.get(event.id)?.resolve();
            break;
          }
          case 'error': {
            // One utterance failed (or a session-level complaint): report it, go on with the rest.
            const which = event.id ? ` (sentence ${this.#sentences.get(event.id)?.index ?? event.id})` : '';
            this.#emit({ type: 'error', code: `tts_${event.code}`, message: `${event.message}${which}` });
            if (event.id) this.#audioDone.get(event.id)?.resolve();
            break;
          }
        }
      }
    } catch (error) {
      if (!this.#cancelled) {
        const code = error instanceof TtsTransportError ? error.code : 'internal';
        this.#fail('tts_unavailable', `TTS stream failed (${code}): ${describe(error)}`);
      }
    } finally {
      for (const w of this.#audioDone.values()) w.resolve();
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
