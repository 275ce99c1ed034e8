// CloudWatch Embedded Metric Format: one JSON log line that CloudWatch Logs turns into metrics,
// so the container publishes its load by writing to stdout (SageMaker sends stdout to the
// endpoint's log group) with no SDK call and no PutMetricData permission. Written by hand: the
// format is one small object (checked in emf.test.ts against AWS's aws-embedded-metrics
// serializer), and that library's environment detection probes EC2 metadata and a local agent,
// neither of which a SageMaker container has.

export type EmfUnit = 'Count' | 'Percent' | 'None' | 'Count/Second' | 'Milliseconds';

export interface EmfMetric {
  name: string;
  value: number;
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
  const values: Record<string, number> = {};
  for (const m of metrics) {
    if (!Number.isFinite(m.value)) throw new RangeError(`metric ${m.name} is not a finite number: ${m.value}`);
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
