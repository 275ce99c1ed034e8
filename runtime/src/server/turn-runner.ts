// Runs turns for the server's routes: admission against the concurrency limit (a slot taken at
// once, so that a route can refuse before it answers and keep the slot it checked), the health
// status (/ping is HealthyBusy while turns run), one log line per turn with its ids (request,
// session, trace: a failed turn at level error, a cancelled one at info), its trace and metrics
// (src/observability), and cancelling all on shutdown.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@kokoro-speech/protocol/server';
import { runTurn, type AnswerSource, type PipelineEvent, type TurnContext, type TurnResult } from '../pipeline/turn.ts';
import { chooseLanguage, LanguageChoiceError, type TurnRequest } from '@kokoro-speech/protocol';
import { RequestError } from './errors.ts';
import { HealthStatus } from './ping.ts';
import type { CallerOutput } from './caller-flow.ts';
import { Observability } from '../observability/index.ts';
import type { VoiceTurnFacts } from '../voice/voice-session.ts';

export interface TurnLimits {
  maxConcurrentTurns: number;
  maxTurnMs: number;
}

/** A turn's slot under MAX_CONCURRENT_TURNS, held from admission until released (idempotent). */
export interface Admission {
  release(): void;
}

export class TurnRunner {
  readonly health = new HealthStatus();
  readonly #context: TurnContext;
  readonly #limits: TurnLimits;
  readonly #log: Logger;
  readonly #running = new Set<AbortController>();
  readonly #observability: Observability;

  constructor(context: TurnContext, limits: TurnLimits, log: Logger, observability = new Observability()) {
    this.#context = context;
    this.#limits = limits;
    this.#log = log;
    this.#observability = observability;
  }

  /** Takes a turn's slot now; throws RequestError 503 `busy` when a new turn would go over the limit. */
  admit(): Admission {
    const { active } = this.health;
    if (active >= this.#limits.maxConcurrentTurns) {
      throw new RequestError(
        503,
        'busy',
        `agent is busy: ${active} turns running (limit ${this.#limits.maxConcurrentTurns}); retry shortly`,
      );
    }
    this.health.turnStarted();
    let held = true;
    return {
      release: () => {
        if (held) this.health.turnEnded();
        held = false;
      },
    };
  }

  /**
   * Throws RequestError 400 when the request asks for a format this agent's TTS transport cannot
   * deliver (Opus is made by the agent from PCM, so every transport has it), or a voice and a
   * language that disagree or that this deployment does not speak (protocol's chooseLanguage).
   */
  validate(request: TurnRequest): void {
    try {
      chooseLanguage(request, this.#context.defaults.voice);
    } catch (error) {
      if (error instanceof LanguageChoiceError) throw new RequestError(400, error.code, error.message);
      throw error;
    }
    const formats = this.#context.tts.formats;
    const format = request.format ?? this.#context.defaults.format;
    if (format === 'opus' || !formats || formats.includes(format)) return;
    throw new RequestError(
      400,
      'invalid_request',
      `format: ${format} is not available through this agent's TTS transport (${this.#context.tts.name}); use one of ${[...formats, 'opus'].join(', ')}`,
    );
  }

  /** Runs one turn to its `done`; throws (before emitting anything) only when not valid here or
   *  not admitted (`admission`: a slot the caller took already, released here). `answer`: the session's agent (a conversation turn); absent: a one-shot turn.
   *  `user`: the caller's user key, for the log line; `streamLimitMs`: when the caller's stream
   *  ends (pipeline `stream_limit`). `flow`: the caller's connection; the turn keeps its slot until
   *  all it wrote is taken. */
  async run(
    request: TurnRequest,
    emit: (event: PipelineEvent) => void,
    signal: AbortSignal,
    via: 'sse' | 'ws',
    turn: {
      sessionId?: string;
      answer?: AnswerSource;
      user?: string | undefined;
      streamLimitMs?: number;
      /** The caller's W3C traceparent (header of the request or of the WebSocket upgrade). */
      traceparent?: string | undefined;
      /** A voice turn's timings (src/voice): the metrics line's voice figures, a voice span. */
      voice?: VoiceTurnFacts;
      admission?: Admission;
    } = {},
    flow?: CallerOutput,
  ): Promise<TurnResult> {
    const { sessionId: session, answer, user, streamLimitMs } = turn;
    let admission = turn.admission;
    try {
      this.validate(request);
      admission ??= this.admit();
    } catch (error) {
      admission?.release();
      throw error;
    }
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    this.#running.add(controller);
    try {
      const requestId = randomUUID();
      const { defaults, tts } = this.#context;
      const observed = this.#observability.startTurn({
        requestId,
        sessionId: session,
        transport: via === 'ws' ? 'websocket' : 'sse',
        ttsTransport: tts.name,
        voice: request.voice ?? defaults.voice,
        format: request.format ?? defaults.format,
        mode: request.mode ?? 'stream',
        traceparent: turn.traceparent,
      });
      const startedAt = performance.now();
      if (turn.voice) observed.trace.voice(turn.voice, startedAt);
      const result = await runTurn(this.#context, {
        trace: observed.trace,
        request,
        emit,
        signal: controller.signal,
        requestId,
        timeoutMs: this.#limits.maxTurnMs,
        ...(streamLimitMs === undefined ? {} : { streamLimitMs }),
        ...(answer ? { answer } : {}),
        ...(session ? { sessionId: session } : {}),
        ...(flow ? { flow } : {}),
      });
      // The slot is the turn's until its last byte is written (or its caller is gone, or dropped).
      await flow?.flushed();
      // Gone before its turn ended: went away, or dropped for not reading.
      const callerDropped = flow?.dropped === true || (result.outcome === 'cancelled' && flow?.gone === true);
      observed.finish(result, {
        callerDropped,
        ...(turn.voice ? { voice: voiceFigures(turn.voice, startedAt, result.metrics.first_audio_ms) } : {}),
      });
      const failed = result.outcome === 'failed';
      this.#log[failed ? 'error' : 'info'](
        {
          request_id: requestId,
          session,
          ...(observed.trace.traceId ? { trace_id: observed.trace.traceId } : {}),
          // The user's key (a hash), never the token's subject.
          ...(user ? { user: user.slice(0, 16) } : {}),
          via,
          mode: request.mode ?? 'stream',
          outcome: result.outcome,
          ...(flow?.dropped ? { caller: 'dropped: stopped reading' } : {}),
          ...result.metrics,
          error: result.error,
        },
        'turn',
      );
      return result;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.#running.delete(controller);
      admission.release();
    }
  }

  cancelAll(reason: Error): void {
    for (const controller of this.#running) controller.abort(reason);
  }
}

/** The metrics line's voice figures: end of speech to the final words, and to the answer's first audio. */
function voiceFigures(facts: VoiceTurnFacts, startedAt: number, firstAudioMs: number | null) {
  return {
    endOfSpeechToTranscriptMs: Math.max(0, facts.transcriptAt - facts.endOfSpeechAt),
    endOfSpeechToFirstAudioMs: firstAudioMs === null ? null : startedAt + firstAudioMs - facts.endOfSpeechAt,
    bargeIns: facts.bargeIns,
  };
}
