// The container's leg of a turn's trace: per utterance, one span under the client's sentence span
// (protocol v1 `traceparent` on the `text` message) with its stages as children: waiting for a
// preparation slot, preparation (G2P on a worker), waiting for the model scheduler, synthesis
// (first model run to last). Made once the utterance has ended, from the marks it collected on
// its way (utterance-prep.ts, utterance-stream.ts), so the hot path only stores timestamps; no tracer, no spans.
import { SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { parentFromTraceparent } from '@kokoro-speech/protocol/observability';
import type { UtteranceInfo, UtteranceMarks, UtteranceStats } from '../tts/utterance-stream.ts';

/** performance.now() ms -> epoch ms (what OpenTelemetry's span times take). */
const epoch = (at: number) => performance.timeOrigin + at;

export class UtteranceSpans {
  readonly #tracer: Tracer;

  constructor(tracer: Tracer) {
    this.#tracer = tracer;
  }

  /** An utterance whose audio was all sent (`stats`), or that failed (`error`). */
  record(u: UtteranceInfo, marks: UtteranceMarks, outcome: { stats: UtteranceStats } | { error: string }): void {
    const endAt = performance.now();
    const parent = parentFromTraceparent(u.traceparent);
    const span = this.#tracer.startSpan(
      'kokoro.utterance',
      {
        startTime: epoch(marks.receivedAt),
        attributes: {
          'kokoro.utterance.id': u.id,
          'kokoro.utterance.index': u.index,
          'kokoro.voice': u.settings.voice,
          'kokoro.format': u.settings.format,
          ...('stats' in outcome
            ? {
                'kokoro.audio_ms': Math.round(outcome.stats.durationMs),
                'kokoro.synthesis_ms': Math.round(outcome.stats.synthesisMs),
                'kokoro.queue_ms': Math.round(outcome.stats.queueMs),
                'kokoro.pieces': outcome.stats.pieces,
              }
            : {}),
        },
      },
      parent,
    );
    if ('error' in outcome) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    const inside = trace.setSpan(parent, span);
    const stage = (name: string, from: number | undefined, to: number | undefined) => {
      if (from === undefined || to === undefined) return;
      this.#tracer.startSpan(name, { startTime: epoch(from) }, inside).end(epoch(to));
    };
    stage('kokoro.queue_wait', marks.receivedAt, marks.prepStartAt);
    stage('kokoro.prep', marks.prepStartAt, marks.prepEndAt);
    stage('kokoro.schedule_wait', marks.prepEndAt, marks.firstRunAt);
    stage('kokoro.synthesis', marks.firstRunAt, marks.lastRunEndAt);
    span.end(epoch(endAt));
  }
}
