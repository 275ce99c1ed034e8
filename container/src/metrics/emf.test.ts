import { describe, expect, test } from '@jest/globals';
// AWS's own EMF library, as the reference for the line we write by hand (a dev dependency only).
import { MetricsContext } from 'aws-embedded-metrics/lib/logger/MetricsContext.js';
import { LogSerializer } from 'aws-embedded-metrics/lib/serializers/LogSerializer.js';
import { AdmissionController, DEFAULT_ADMISSION } from '../admission/index.ts';
import { emfLine, type EmfMetric } from '@kokoro-speech/protocol/observability';
import { CONTAINER_METRICS } from '@kokoro-speech/protocol/metric-names';
import { LoadMetrics } from './load-metrics.ts';

/** The same metrics through aws-embedded-metrics' serializer. */
function reference(
  namespace: string,
  dimensions: Record<string, string>,
  metrics: EmfMetric[],
  at: number,
  properties: Record<string, unknown>,
) {
  const context = MetricsContext.empty();
  context.setNamespace(namespace);
  context.setDimensions([dimensions], false);
  context.setTimestamp(at);
  for (const [key, value] of Object.entries(properties)) context.setProperty(key, value);
  for (const m of metrics)
    for (const v of typeof m.value === 'number' ? [m.value] : m.value) context.putMetric(m.name, v, m.unit);
  const [line] = new LogSerializer().serialize(context);
  return JSON.parse(line!);
}

const sortMetrics = (doc: { _aws: { CloudWatchMetrics: { Metrics: { Name: string }[] }[] } }) => {
  doc._aws.CloudWatchMetrics[0]!.Metrics.sort((a, b) => a.Name.localeCompare(b.Name));
  return doc;
};

describe('emfLine', () => {
  test('is the document AWS’s embedded-metrics serializer writes for the same metrics', () => {
    const metrics: EmfMetric[] = [
      { name: 'LoadRatio', value: 0.42, unit: 'None' },
      { name: 'Refusals', value: 3, unit: 'Count' },
      { name: 'RefusedShare', value: 12.5, unit: 'Percent' },
    ];
    const dims = { EndpointName: 'kokoro-dev-tts', VariantName: 'AllTraffic' };
    const at = Date.now(); // (the library refuses timestamps over 14 days old, as CloudWatch does)
    const ours = JSON.parse(emfLine('KokoroSpeech', dims, metrics, at, { sessionsNow: 7 }));
    expect(sortMetrics(ours)).toEqual(sortMetrics(reference('KokoroSpeech', dims, metrics, at, { sessionsNow: 7 })));
    expect(ours._aws.Timestamp).toBe(at);
  });

  test('without dimensions: one empty dimension set, as the library writes it', () => {
    const metrics: EmfMetric[] = [{ name: 'SessionsAdmitted', value: 2, unit: 'Count' }];
    const at = Date.now();
    const ours = JSON.parse(emfLine('KokoroSpeech', {}, metrics, at));
    expect(ours._aws.CloudWatchMetrics[0].Dimensions).toEqual([[]]);
    expect(ours).toEqual(reference('KokoroSpeech', {}, metrics, at, {}));
  });

  test('a value that is not a finite number is refused (CloudWatch would drop the whole line)', () => {
    expect(() => emfLine('N', {}, [{ name: 'LoadRatio', value: Number.NaN, unit: 'None' }], 0)).toThrow(
      /LoadRatio is not a finite number/,
    );
  });
});

test('LoadMetrics: per interval, the time-averaged sessions against capacity, refusals and their share', () => {
  let clock = 0;
  const source = {
    now: () => clock,
    backlogs: () => [],
    modelBusyMs: () => clock * 0.3,
    prepBusyMs: () => 0,
    modelSlots: 1,
    prepSlots: 1,
    modelMsPerAudioMs: () => 0.04,
    prepMsPerAudioMs: () => 0,
    averageRunMs: () => 1,
  };
  const admission = new AdmissionController({ ...DEFAULT_ADMISSION, priorWeightMs: 1e12 }, source);
  const lines: string[] = [];
  const metrics = new LoadMetrics({
    admission,
    namespace: 'KokoroSpeech',
    dimensions: { EndpointName: 'e', VariantName: 'v' },
    write: (line) => lines.push(line),
    now: () => clock,
    wallClock: () => 1_700_000_000_000 + clock,
  });
  // 10 sessions for the first half of a minute, 30 for the second half; then a burst refused.
  const held = Array.from({ length: 10 }, () => admission.admit('session'));
  clock += 30_000;
  held.push(...Array.from({ length: 20 }, () => admission.admit('session')));
  clock += 30_000;
  const refused = Array.from({ length: 10 }, () => admission.admit('session')).filter((d) => !d.admitted);
  const line = JSON.parse(metrics.flush());
  expect(lines).toHaveLength(1);
  expect(line).toMatchObject({
    [CONTAINER_METRICS.sessions]: 20, // (10 x 30 s + 30 x 30 s) / 60 s
    [CONTAINER_METRICS.capacity]: 35, // the prior: 0.7 / (0.04 x 0.5)
    [CONTAINER_METRICS.loadRatio]: 0.571,
    [CONTAINER_METRICS.refusals]: refused.length,
    [CONTAINER_METRICS.refusedShare]: Math.round((1000 * 100 * refused.length) / 40) / 1000,
    [CONTAINER_METRICS.modelUtilization]: 30,
    sessionsNow: 35,
    EndpointName: 'e',
    VariantName: 'v',
  });
  expect(refused.length).toBe(5);
  expect(line._aws.Timestamp).toBe(1_700_000_060_000);
  // The next interval counts from here.
  clock += 60_000;
  expect(JSON.parse(metrics.flush())).toMatchObject({
    [CONTAINER_METRICS.sessions]: 35,
    [CONTAINER_METRICS.refusals]: 0,
  });
});
