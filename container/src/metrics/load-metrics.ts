// The container's load, published every METRICS_INTERVAL_S as one Embedded Metric Format line on
// stdout: sessions admitted (time-averaged over the interval) against the current capacity
// estimate, their ratio (the endpoint's target-tracking metric), refusals and the refused share,
// and the model's busy share. Counting costs nothing on the hot path: the admission controller's
// counters are read once per interval.
import type { AdmissionController } from '../admission/index.ts';
import { CONTAINER_METRICS, emfLine, type EmfMetric } from '@kokoro-speech/protocol/observability';

export interface LoadMetricsOptions {
  admission: AdmissionController;
  namespace: string;
  dimensions: Readonly<Record<string, string>>;
  /** Where each line goes (default: stdout). */
  write: (line: string) => void;
  /** Monotonic clock of the admission source (ms). */
  now: () => number;
  /** Wall clock for the metric timestamps (default Date.now). */
  wallClock?: () => number;
}

export class LoadMetrics {
  readonly #o: LoadMetricsOptions;
  #last: { at: number; sessionMs: number; admitted: number; refused: number };

  constructor(options: LoadMetricsOptions) {
    this.#o = options;
    const s = options.admission.snapshot();
    this.#last = { at: options.now(), sessionMs: s.sessionMs, admitted: s.admitted, refused: s.refused };
  }

  /** The metrics since the previous call (or the start), written as one line; returns it. */
  flush(): string {
    const now = this.#o.now();
    const s = this.#o.admission.snapshot();
    const spanMs = Math.max(1, now - this.#last.at);
    const sessions = (s.sessionMs - this.#last.sessionMs) / spanMs;
    const admitted = s.admitted - this.#last.admitted;
    const refused = s.refused - this.#last.refused;
    this.#last = { at: now, sessionMs: s.sessionMs, admitted: s.admitted, refused: s.refused };
    const metrics: EmfMetric[] = [
      { name: CONTAINER_METRICS.sessions, value: round(sessions), unit: 'Count' },
      { name: CONTAINER_METRICS.capacity, value: s.capacity, unit: 'Count' },
      { name: CONTAINER_METRICS.loadRatio, value: round(s.capacity > 0 ? sessions / s.capacity : 1), unit: 'None' },
      { name: CONTAINER_METRICS.refusals, value: refused, unit: 'Count' },
      {
        name: CONTAINER_METRICS.refusedShare,
        value: round(admitted + refused > 0 ? (100 * refused) / (admitted + refused) : 0),
        unit: 'Percent',
      },
      { name: CONTAINER_METRICS.modelUtilization, value: round(100 * s.modelUtilization), unit: 'Percent' },
    ];
    const line = emfLine(this.#o.namespace, this.#o.dimensions, metrics, (this.#o.wallClock ?? Date.now)(), {
      sessionsNow: s.sessions,
      admitted,
      refusedBacklog: s.refusedBacklog,
      refusedSustained: s.refusedSustained,
    });
    this.#o.write(line);
    return line;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
