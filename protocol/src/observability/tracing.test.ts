import { afterEach, describe, expect, test } from '@jest/globals';
import { createServer } from 'node:net';
import { trace } from '@opentelemetry/api';
import { OtlpReceiver } from './otlp-receiver.ts';
import { parentFromTraceparent, startTracing, tracesExporter, traceparentOf, type Tracing } from './tracing.ts';

const warnings: string[] = [];
const options = { serviceName: 'test-service', warn: (m: string) => void warnings.push(m) };
let running: Tracing | undefined;
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  await running?.shutdown();
  await receiver?.close();
  running = undefined;
  receiver = undefined;
  warnings.length = 0;
});

/** A loopback port nothing listens on (an unreachable collector). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('startTracing: off unless configured', () => {
  test.each([
    ['nothing set', {}],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }],
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }],
  ])('%s: the no-op tracer, nothing registered', (_, env) => {
    running = startTracing(env, options);
    expect(running.enabled).toBe(false);
    expect(running.destination).toBeNull();
    const span = running.tracer.startSpan('x');
    expect(span.isRecording()).toBe(false);
    expect(traceparentOf(span)).toBeUndefined(); // nothing to propagate: the container gets no field
    span.end();
  });

  test('an endpoint alone turns it on; the exporter named, the traces endpoint and the protocol are honoured', () => {
    expect(tracesExporter({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe('otlp');
    expect(
      tracesExporter({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://xray.eu-west-1.amazonaws.com/v1/traces' }),
    ).toBe('otlp');
    expect(tracesExporter({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe('otlp'); // localhost:4318
    expect(tracesExporter({ OTEL_TRACES_EXPORTER: 'console' })).toBe('console');
    expect(() => tracesExporter({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER: must be otlp/);
    expect(tracesExporter({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('otlp');
    expect(tracesExporter({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' })).toBe(
      'otlp',
    );
  });
});

describe('startTracing: on', () => {
  test('spans reach the OTLP/HTTP endpoint with the service name and resource attributes of OTEL_*', async () => {
    receiver = await OtlpReceiver.start();
    running = startTracing(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'named-by-env',
        OTEL_RESOURCE_ATTRIBUTES: 'aws.log.group.names=/aws/x',
      },
      options,
    );
    expect(running).toMatchObject({ enabled: true, destination: receiver.tracesUrl });
    const parent = running.tracer.startSpan('parent');
    const child = running.tracer.startSpan('child', {}, trace.setSpan(parentFromTraceparent(undefined), parent));
    child.end();
    parent.end();
    await running.flush();
    const spans = await receiver.waitFor((s) => s.length >= 2);
    const byName = Object.fromEntries(spans.map((s) => [s.name, s]));
    expect(byName.child!.parentSpanId).toBe(byName.parent!.spanId);
    expect(byName.child!.traceId).toBe(byName.parent!.traceId);
    expect(byName.parent!.service).toBe('named-by-env');
    expect(byName.parent!.resource['aws.log.group.names']).toBe('/aws/x');
  });

  test("a caller's traceparent: a valid one is the parent, a malformed one starts a new trace", async () => {
    receiver = await OtlpReceiver.start();
    running = startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, options);
    const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    running.tracer.startSpan('joined', {}, parentFromTraceparent(caller)).end();
    for (const bad of ['00-xyz-b7ad6b7169203331-01', '00-00000000000000000000000000000000-b7ad6b7169203331-01', 'x'])
      running.tracer.startSpan('fresh', {}, parentFromTraceparent(bad)).end();
    await running.flush();
    const spans = await receiver.waitFor((s) => s.length >= 4);
    const joined = spans.find((s) => s.name === 'joined')!;
    expect(joined).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', parentSpanId: 'b7ad6b7169203331' });
    const fresh = spans.filter((s) => s.name === 'fresh');
    expect(fresh).toHaveLength(3);
    for (const s of fresh) {
      expect(s.parentSpanId).toBeUndefined();
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.traceId).not.toBe('0af7651916cd43dd8448eb211c80319c');
    }
  });

  test('an unreachable collector: spans are dropped with one warning, not one per batch', async () => {
    const port = await closedPort();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '300' };
    running = startTracing(env, options);
    for (let batch = 0; batch < 3; batch++) {
      running.tracer.startSpan(`lost ${batch}`).end();
      await running.flush();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`cannot export traces to http://127.0.0.1:${port}/v1/traces`));
  });

  test('a collector that hangs: queued spans stay within OTEL_BSP_MAX_QUEUE_SIZE, the rest are dropped', async () => {
    receiver = await OtlpReceiver.start();
    receiver.hold();
    running = startTracing(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_MAX_QUEUE_SIZE: '8',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '4',
        OTEL_BSP_SCHEDULE_DELAY: '10',
      },
      options,
    );
    // The first batch goes out and hangs; then 200 more spans arrive while it does.
    for (let i = 0; i < 4; i++) running.tracer.startSpan(`first ${i}`).end();
    await receiver.waitFor((s) => s.length >= 4);
    for (let i = 0; i < 200; i++) running.tracer.startSpan(`while hung ${i}`).end();
    receiver.release();
    await running.flush();
    await running.flush();
    const later = receiver.spans.filter((s) => s.name.startsWith('while hung'));
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThanOrEqual(8); // the queue's bound: 192 or more were dropped
  });
});

test('another OTLP protocol than http/json: one warning at start, spans still go (as JSON)', async () => {
  receiver = await OtlpReceiver.start();
  running = startTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' },
    options,
  );
  expect(warnings).toEqual([
    'OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: traces go as http/json, the one protocol built in (OTLP/HTTP endpoints take it)',
  ]);
  running.tracer.startSpan('still sent').end();
  await running.flush();
  expect(receiver.spans.map((s) => s.name)).toEqual(['still sent']);
});
