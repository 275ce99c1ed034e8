// How the agent is observed: a trace per turn (OpenTelemetry, when OTEL_* turn it on) and a metrics
// line per turn (EMF, when AGENT_METRICS=emf). The server starts one TurnObservation per turn; the
// pipeline sees only its TurnTrace (turn-trace.ts).
import type { Tracer } from '@opentelemetry/api';
import { OtelTurnTrace, type TurnTraceStart } from './otel-turn-trace.ts';
import { NoTurnTrace, type TurnTrace } from './turn-trace.ts';
import { TurnMetrics, type TurnExtras, type TurnFigures, type TurnMetricsOptions } from './turn-metrics.ts';

export { NoTurnTrace, type TurnTrace, type TurnOutcome, type VoicePath } from './turn-trace.ts';
export { TurnMetrics, errorDimension, type TurnMetricsOptions } from './turn-metrics.ts';
export type { TurnTraceStart } from './otel-turn-trace.ts';

export interface ObservabilityOptions {
  /** A recording tracer (startTracing's, when enabled); absent: no traces. */
  tracer?: Tracer;
  /** EMF turn metrics; absent: none. */
  metrics?: TurnMetricsOptions;
}

export interface TurnObservation {
  trace: TurnTrace;
  /** The turn is over (its last byte written): its metrics line(s). */
  finish(result: TurnFigures, extras: Omit<TurnExtras, 'refusals'>): void;
}

export class Observability {
  readonly #tracer: Tracer | undefined;
  readonly #metrics: TurnMetrics | undefined;

  constructor(options: ObservabilityOptions = {}) {
    this.#tracer = options.tracer;
    this.#metrics = options.metrics ? new TurnMetrics(options.metrics) : undefined;
  }

  startTurn(start: TurnTraceStart): TurnObservation {
    const trace = this.#tracer ? new OtelTurnTrace(this.#tracer, start) : new NoTurnTrace();
    const metrics = this.#metrics;
    return {
      trace,
      finish: (result, extras) => metrics?.turn(result, { ...extras, refusals: trace.refusals }),
    };
  }
}
