// One turn as an OpenTelemetry trace: the turn span (under the caller's `traceparent` when it sent
// a valid one), and under it a span per sentence (text complete -> sent -> first audio -> last
// audio; its trace parent goes to the container, whose utterance spans nest under it), a span per
// TTS stream try (open, retry after a refusal, reconnect after a break), a span per tool call and
// a `turn.cut` span at a barge-in. Strands' own agent, cycle and model spans nest under the turn
// span because the turn runs inside its context (run()). Attribute names: ours under `kokoro.`,
// the session under `session.id` (what AgentCore's GenAI observability groups by; see
// docs/design/observability.md).
import { context, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { parentFromTraceparent, traceparentOf } from '@kokoro-speech/protocol/observability';
import type { TtsEvent, TtsSessionObserver } from '../tts/types.ts';
import type { SentenceInfo, ToolEvent, TurnOutcome, TurnTrace, VoicePath } from './turn-trace.ts';

export interface TurnTraceStart {
  requestId: string;
  sessionId?: string | undefined;
  transport: 'sse' | 'websocket';
  ttsTransport: string;
  voice: string;
  format: string;
  mode: string;
  /** The caller's W3C traceparent header; malformed or absent: a new trace. */
  traceparent?: string | undefined;
}

export class OtelTurnTrace implements TurnTrace {
  readonly #tracer: Tracer;
  readonly #span: Span;
  readonly #context: Context;
  readonly #sentences = new Map<string, { span: Span; audio: boolean }>();
  readonly #tools = new Map<string, Span>();
  #refusals = 0;
  #retries = 0;
  #reconnects = 0;
  #ended = false;

  constructor(tracer: Tracer, start: TurnTraceStart) {
    this.#tracer = tracer;
    const parent = parentFromTraceparent(start.traceparent);
    this.#span = tracer.startSpan(
      'kokoro.turn',
      {
        attributes: {
          'kokoro.turn.request_id': start.requestId,
          ...(start.sessionId ? { 'session.id': start.sessionId } : {}),
          'kokoro.turn.transport': start.transport,
          'kokoro.tts.transport': start.ttsTransport,
          'kokoro.voice': start.voice,
          'kokoro.format': start.format,
          'kokoro.turn.mode': start.mode,
        },
      },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  get traceId(): string {
    return this.#span.spanContext().traceId;
  }

  readonly tts: TtsSessionObserver = {
    streamTry: (why) => {
      if (why === 'retry') this.#retries++;
      if (why === 'reconnect') this.#reconnects++;
      const span = this.#child('tts.connect', { 'kokoro.tts.why': why });
      return (outcome) => {
        if (outcome.result === 'refused') this.#refusals++;
        span.setAttribute('kokoro.tts.result', outcome.result);
        if (outcome.result !== 'ready') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? '' });
        span.end();
      };
    },
  };

  get refusals(): number {
    return this.#refusals;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return context.with(this.#context, work);
  }

  annotate(attributes: Readonly<Record<string, string | number | boolean>>): void {
    this.#span.setAttributes(attributes);
  }

  firstToken(): void {
    this.#span.addEvent('first_token');
  }

  sentence(id: string, info: SentenceInfo): void {
    const span = this.#child('kokoro.sentence', {
      'kokoro.sentence.id': id,
      'kokoro.sentence.index': info.index,
      'kokoro.sentence.characters': info.characters,
      'kokoro.sentence.kind': info.kind,
    });
    span.addEvent('text_done');
    this.#sentences.set(id, { span, audio: false });
  }

  sentenceSent(id: string): string | undefined {
    const s = this.#sentences.get(id);
    if (!s) return undefined;
    s.span.addEvent('sent');
    return traceparentOf(s.span);
  }

  ttsEvent(event: TtsEvent): void {
    if (event.type === 'reconnected') {
      this.#span.addEvent('tts.reconnected', { 'kokoro.tts.resent': event.resent.length });
      return;
    }
    const s = event.id === null ? undefined : this.#sentences.get(event.id);
    if (!s) return;
    switch (event.type) {
      case 'audio':
        if (!s.audio) {
          s.audio = true;
          s.span.addEvent('first_audio');
        }
        return;
      case 'audio_end':
        s.span.addEvent('last_audio');
        s.span.setAttributes({
          'kokoro.sentence.audio_ms': Math.round(event.duration_ms),
          'kokoro.sentence.synthesis_ms': Math.round(event.synthesis_ms),
          'kokoro.sentence.queue_ms': Math.round(event.queue_ms),
        });
        s.span.end();
        this.#sentences.delete(event.id);
        return;
      case 'error':
        s.span.setStatus({ code: SpanStatusCode.ERROR, message: `tts_${event.code}: ${event.message}` });
        s.span.end();
        this.#sentences.delete(event.id!);
        return;
    }
  }

  tool(event: ToolEvent): void {
    if (event.type === 'tool_start') {
      this.#tools.set(
        event.id,
        this.#child('kokoro.tool', { 'kokoro.tool.name': event.name, 'kokoro.tool.id': event.id }),
      );
      return;
    }
    const span = this.#tools.get(event.id);
    if (!span) return;
    if (event.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
    span.end();
    this.#tools.delete(event.id);
  }

  cut(reason: string): void {
    this.#child('kokoro.turn.cut', { 'kokoro.cut.reason': reason, 'kokoro.cut.sentences': this.#sentences.size }).end();
  }

  end(outcome: TurnOutcome, errorCode?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    // Sentences and tools still open were cut off (cancelled, failed): they end with the turn.
    for (const { span } of this.#sentences.values()) span.setAttribute('kokoro.sentence.cut', true).end();
    for (const span of this.#tools.values()) span.end();
    this.#span.setAttributes({
      'kokoro.turn.outcome': outcome,
      'kokoro.tts.refusals': this.#refusals,
      'kokoro.tts.retries': this.#retries,
      'kokoro.tts.reconnects': this.#reconnects,
      ...(errorCode ? { 'kokoro.turn.error_code': errorCode } : {}),
    });
    if (outcome === 'error') this.#span.setStatus({ code: SpanStatusCode.ERROR, message: errorCode ?? 'error' });
    this.#span.end();
  }

  /** `kokoro.voice`: from the customer's end of speech to the turn's start (endpointing, the STT). */
  voice(path: VoicePath, startedAt: number): void {
    const epoch = (at: number) => performance.timeOrigin + at;
    this.#tracer
      .startSpan(
        'kokoro.voice',
        {
          startTime: epoch(path.endOfSpeechAt),
          attributes: {
            'kokoro.voice.end_of_speech_to_transcript_ms': Math.round(
              Math.max(0, path.transcriptAt - path.endOfSpeechAt),
            ),
            'kokoro.voice.end_of_speech_to_turn_ms': Math.round(startedAt - path.endOfSpeechAt),
          },
        },
        this.#context,
      )
      .end(epoch(startedAt));
  }

  #child(name: string, attributes: Record<string, string | number | boolean>): Span {
    return this.#tracer.startSpan(name, { attributes }, this.#context);
  }
}
