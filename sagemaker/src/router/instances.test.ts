// The router in front of several containers, the instances of one variant: least outstanding
// requests routing (an open stream counts until it ends), a container's refusal of the upgrade
// passed back as a ModelError with the container's status and body, and an instance that dies:
// its streams end with a ModelStreamError, it leaves the rotation, new streams go to the survivor.
import { afterEach, expect, test } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  SageMakerRuntimeClient,
} from '@aws-sdk/client-sagemaker-runtime';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { openBidiStream, SageMakerStreamError, type BidiStream, type ResponseEvent } from '../client/index.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { startLocalSageMakerRouter, type LocalSageMakerRouter } from './router.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function fleet(containers: string[], options: { healthCheckIntervalMs?: number } = {}) {
  const router = await startLocalSageMakerRouter({ containerUrls: containers, ...options });
  closers.push(() => router.close());
  return router;
}

async function fakes(n: number): Promise<FakeContainer[]> {
  const started = await Promise.all(Array.from({ length: n }, () => startFakeContainer()));
  for (const f of started) closers.push(() => f.close());
  return started;
}

const open = (router: LocalSageMakerRouter) =>
  openBidiStream({ endpointName: 'kokoro', region: 'us-east-1', endpoint: router.url, credentials: LOCAL_CREDENTIALS });

/** Opens a stream and waits for the container's ready: it is routed and counted. */
async function ready(
  router: LocalSageMakerRouter,
): Promise<{ stream: BidiStream; events: AsyncIterator<ResponseEvent> }> {
  const stream = await open(router);
  closers.push(async () => stream.close());
  stream.send({ bytes: fromUtf8(JSON.stringify({ type: 'config' })), dataType: 'UTF8' });
  const events = stream.responses[Symbol.asyncIterator]();
  const first = await events.next();
  expect(first.value).toMatchObject({ type: 'PayloadPart', dataType: 'UTF8' });
  expect(JSON.parse(toUtf8((first.value as { bytes: Uint8Array }).bytes))).toMatchObject({ type: 'ready' });
  return { stream, events };
}

const outstanding = (router: LocalSageMakerRouter) => router.instances().map((i) => i.outstanding);

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

test('each new stream goes to the instance with the fewest outstanding requests; ties take turns', async () => {
  const [a, b] = await fakes(2);
  const router = await fleet([a!.url, b!.url]);
  const s1 = await ready(router);
  expect(outstanding(router)).toEqual([1, 0]);
  await ready(router);
  expect(outstanding(router)).toEqual([1, 1]);
  await ready(router);
  expect(outstanding(router)).toEqual([2, 1]);
  // The first stream (on instance 0) ends: its request is no longer outstanding.
  s1.stream.end();
  await until(() => outstanding(router)[0] === 1);
  await ready(router); // a tie: the turn after instance 0 is instance 1
  expect(outstanding(router)).toEqual([1, 2]);
  await ready(router);
  expect(outstanding(router)).toEqual([2, 2]);
  // Each container saw the config of exactly the streams routed to it.
  const configs = (f: FakeContainer) =>
    f.received.filter((r) => (r.message as { type: string }).type === 'config').length;
  await until(() => configs(a!) === 3 && configs(b!) === 2);
});

test("a container's refusal of the upgrade comes back as ModelError with its status and body; POSTs likewise", async () => {
  const body = JSON.stringify({
    error: { code: 'overloaded', message: 'one more session would run dry', retry_after_s: 2 },
  });
  const refusing = createServer((req, res) => {
    if (req.url === '/ping') return void res.end('{}');
    res.writeHead(503, { 'retry-after': '2', 'content-type': 'application/json' }).end(body);
  });
  refusing.on('upgrade', (_req, socket) =>
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ),
  );
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => refusing.close(() => resolve())));
  const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  const router = await fleet([url, url]);

  const error = await open(router).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SageMakerStreamError);
  expect(error).toMatchObject({ code: 'ModelError', status: 424, originalStatusCode: 503, originalMessage: body });
  expect((error as Error).message).toMatch(/Received server error \(503\) from model/);
  await until(() => outstanding(router).every((n) => n === 0));
  expect(router.instances().every((i) => i.healthy)).toBe(true); // a refusal is not a failure

  const client = new SageMakerRuntimeClient({
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const posted = await client
    .send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: 'kokoro', Body: fromUtf8('{"text":"Hi."}') }))
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(posted).toBeInstanceOf(ModelError);
  expect(posted).toMatchObject({ OriginalStatusCode: 503, OriginalMessage: body });
  client.destroy();
});

test('an instance that dies: its streams end with ModelStreamError, new streams go to the survivor', async () => {
  const [a, b] = await fakes(2);
  const router = await fleet([a!.url, b!.url], { healthCheckIntervalMs: 60_000 });
  const onA = await ready(router);
  await ready(router);
  expect(outstanding(router)).toEqual([1, 1]);
  await a!.close(); // its sockets drop without a close frame, as when the process dies
  const next = await onA.events.next();
  expect(next.value).toMatchObject({ type: 'ModelStreamError' });
  await until(() => router.instances()[0]!.healthy === false);
  // Instance 0 now has nothing outstanding, yet every new stream goes to instance 1.
  await ready(router);
  await ready(router);
  expect(outstanding(router)).toEqual([0, 3]);
  await until(() => b!.received.filter((r) => (r.message as { type: string }).type === 'config').length === 3);
});

test('the periodic /ping brings a recovered instance back into the rotation', async () => {
  const [a, b] = await fakes(2);
  let healthy = false;
  const flaky = createServer((req, res) => res.writeHead(healthy && req.url === '/ping' ? 200 : 503).end('{}'));
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => flaky.close(() => resolve())));
  const router = await fleet([`http://127.0.0.1:${(flaky.address() as AddressInfo).port}`, a!.url, b!.url], {
    healthCheckIntervalMs: 20,
  });
  await until(() => router.instances()[0]!.healthy === false);
  healthy = true;
  await until(() => router.instances()[0]!.healthy === true);
});

test('the router takes containerUrl or containerUrls, not both or neither', async () => {
  await expect(startLocalSageMakerRouter({})).rejects.toThrow(/containerUrl .* or containerUrls/);
  await expect(startLocalSageMakerRouter({ containerUrl: 'http://a', containerUrls: ['http://b'] })).rejects.toThrow(
    /not both or neither/,
  );
  await expect(startLocalSageMakerRouter({ containerUrls: [] })).rejects.toThrow(/at least one container URL/);
  await expect(startLocalSageMakerRouter({ containerUrls: ['ftp://x'] })).rejects.toThrow(
    /http\(s\):\/\/ or ws\(s\):\/\//,
  );
});
