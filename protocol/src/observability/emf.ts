// CloudWatch Embedded Metric Format: one JSON log line that CloudWatch Logs turns into metrics,
// so the container (its load) and the agent (its turns) publish by writing to stdout (SageMaker and
// AgentCore send stdout to their log groups) with no SDK call and no PutMetricData permission.
// Written by hand: the format is one small object (checked in container/src/metrics/emf.test.ts and
// runtime/src/observability/turn-metrics.test.ts against AWS's aws-embedded-metrics serializer),
// and that library's environment detection probes EC2 metadata and a local agent, neither of which
// a SageMaker container or an AgentCore runtime has.

export type EmfUnit = 'Count' | 'Percent' | 'None' | 'Count/Second' | 'Milliseconds';

export interface EmfMetric {
  name: string;
  /** An array is several values of one metric in one line (EMF allows up to 100). */
  value: number | readonly number[];
  unit: EmfUnit;
}

/** One EMF log line (no trailing newline). `timestampMs` is epoch ms (wall clock: CloudWatch's time). */
export function emfLine(
  namespace: string,
  dimensions: Readonly<Record<string, string>>,
  metrics: readonly EmfMetric[],
  timestampMs: number,
  properties: Readonly<Record<string, unknown>> = {},
): string {
  const values: Record<string, number | readonly number[]> = {};
  for (const m of metrics) {
    const all = typeof m.value === 'number' ? [m.value] : m.value;
    for (const v of all) {
      if (!Number.isFinite(v)) throw new RangeError(`metric ${m.name} is not a finite number: ${v}`);
    }
    if (all.length > 100) throw new RangeError(`metric ${m.name} has ${all.length} values; EMF takes at most 100`);
    values[m.name] = m.value;
  }
  return JSON.stringify({
    _aws: {
      Timestamp: Math.round(timestampMs),
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [Object.keys(dimensions)],
          Metrics: metrics.map((m) => ({ Name: m.name, Unit: m.unit })),
        },
      ],
    },
    ...properties,
    ...dimensions,
    ...values,
  });
}
