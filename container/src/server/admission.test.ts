// Admission control end to end over loopback: while an admitted session's first audio is still
// being made (the simulated model is slower than its deadline), new sessions are refused before
// the upgrade (503 + Retry-After, the reason in the body) and POSTs get 503 too, a flood of
// connects is refused without touching the admitted session, which plays to the end; once its
// queue is done, a new session is admitted. The load lines (Embedded Metric Format) count it all.
import { expect, test } from '@jest/globals';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { AudioEndMessage } from '@kokoro-speech/protocol';
import type { Engine } from '../engine/types.ts';
import { TestClient } from '../testing/test-support.ts';
import { aroundRuns } from '../testing/around-runs.ts';
import { lateAdmission, suiteServer } from '../testing/fixture-server.ts';

type MetricLine = Record<string, number> & { _aws: any };
const metricLines: MetricLine[] = [];
/** Called with every load line the server writes. */
let onMetricLine = () => {};
/** While set, model runs wait for it: the admitted session's first piece stays pending for as long
 *  as the test needs (a flood of 100 upgrades on a loaded machine can outlast any fixed delay). */
let hold: PromiseWithResolvers<void> | undefined;

/** The engine, with every model run waiting for `hold` when one is set. */
function held(engine: Engine): Engine {
  return aroundRuns(engine, async (_piece, run) => {
    await hold?.promise;
    return run();
  });
}

const fixture = suiteServer(() => ({
  ...lateAdmission,
  wrap: held,
  config: {
    ...lateAdmission.config,
    metricsIntervalMs: 200,
    metricsDimensions: { EndpointName: 'kokoro-test', VariantName: 'AllTraffic' },
  },
  writeMetrics: (line) => {
    metricLines.push(JSON.parse(line) as MetricLine);
    onMetricLine();
  },
}));

/** The answer to one upgrade: 101, or the refusal's status, headers and body. */
function upgrade(): Promise<{ status: number; retryAfter?: string; body?: string; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(fixture.server.wsUrl);
    ws.once('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          ...(res.headers['retry-after'] && { retryAfter: res.headers['retry-after'] }),
        }),
      );
    });
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('error', (e) => (e.message.includes('Unexpected server response') ? undefined : reject(e)));
  });
}

test('refuses newcomers while an admitted session would run late, never the admitted session', async () => {
  const a = await TestClient.connect(fixture.server.wsUrl);
  hold = Promise.withResolvers();
  a.send({ type: 'text', text: 'This first answer takes the model longer than its deadline.', id: 'a0' });
  a.send({ type: 'nonsense' }); // messages are handled in order: once its error is back, a0 is queued
  await a.next((m) => m.type === 'error');

  const refused = await upgrade();
  expect(refused.status).toBe(503);
  expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
  const body = JSON.parse(refused.body!) as { error: { code: string; message: string; retry_after_s: number } };
  expect(body.error).toMatchObject({ code: 'overloaded', retry_after_s: Number(refused.retryAfter) });
  expect(body.error.message).toMatch(/ADMISSION_FIRST_AUDIO_MS=400/);

  const post = await fetch(`${fixture.server.url}/invocations`, {
    method: 'POST',
    body: JSON.stringify({ text: 'Hi.' }),
  });
  expect(post.status).toBe(503);
  expect(Number(post.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(((await post.json()) as { error: { code: string } }).error.code).toBe('overloaded');

  // A flood of connects: every one refused before the upgrade; the admitted session is untouched.
  const flood = await Promise.all(Array.from({ length: 100 }, () => upgrade()));
  expect(flood.map((r) => r.status)).toEqual(Array(100).fill(503));
  hold.resolve();

  const end = await a.next<AudioEndMessage>((m) => m.type === 'audio_end');
  expect(end.id).toBe('a0');
  expect(a.messages.filter((m) => m.type === 'error')).toHaveLength(1); // only the nonsense

  // Its queue is done: a new session fits.
  const admitted = await upgrade();
  expect(admitted.status).toBe(101);
  admitted.ws!.close();
  await a.close();

  // The load lines: valid EMF with the endpoint's dimensions; refusals counted, sessions seen.
  // Every 200 ms a line: wait for the one that has counted the 102 refusals above.
  const refusals = () => metricLines.reduce((n, l) => n + l.Refusals!, 0);
  await new Promise<void>((resolve) => {
    onMetricLine = () => (refusals() >= 102 && metricLines.length >= 2 ? resolve() : undefined);
    onMetricLine();
  });
  const lines = [...metricLines];
  for (const line of lines) {
    expect(line._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: 'KokoroSpeech',
      Dimensions: [['EndpointName', 'VariantName']],
    });
    expect(line).toMatchObject({ EndpointName: 'kokoro-test', VariantName: 'AllTraffic' });
  }
  expect(refusals()).toBe(102);
  expect(Math.max(...lines.map((l) => l.SessionsAdmitted!))).toBeGreaterThan(0.5);
  expect(Math.max(...lines.map((l) => l.RefusedShare!))).toBeGreaterThan(50);
});
