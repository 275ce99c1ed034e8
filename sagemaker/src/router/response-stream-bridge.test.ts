// InvokeEndpointWithResponseStream at its edges, with the official client
// (@aws-sdk/client-sagemaker-runtime): a caller that stops reading holds the container's
// POST /invocations body back (bounded, measured as bytes out of the container against bytes the
// caller got), and a body that breaks off mid-way ends the caller's stream with a ModelStreamError.
import { afterEach, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import {
  InvokeEndpointWithResponseStreamCommand,
  ModelStreamError,
  SageMakerRuntimeClient,
} from '@aws-sdk/client-sagemaker-runtime';
import { fromUtf8 } from '@smithy/util-utf8';
import { startBreakingContainer, startFloodingContainer } from '../testing/misbehaving-containers.ts';
import type { Breakage } from '../testing/misbehaving-containers.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { startLocalSageMakerRouter } from './router.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function invoke(containerUrl: string) {
  const router = await startLocalSageMakerRouter({ containerUrl, endpointName: 'kokoro' });
  closers.push(() => router.close());
  const client = new SageMakerRuntimeClient({
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  closers.push(async () => client.destroy());
  const response = await client.send(
    new InvokeEndpointWithResponseStreamCommand({
      EndpointName: 'kokoro',
      ContentType: 'application/json',
      Body: fromUtf8('{"text":"x"}'),
    }),
  );
  return response.Body![Symbol.asyncIterator]();
}

const MiB = 1024 * 1024;

test('a caller that stops reading holds the container back: what left it stays bounded; nothing is lost', async () => {
  // As for the bidirectional stream (bidi-bridge.test.ts), but HTTP/1.1 has no flow-control
  // window: while the caller reads nothing, what left the container can only be in the router (one
  // chunk, the response's buffer), fetch's body queue, and the kernel buffers of two loopback
  // connections (9-10.4 MiB measured here, the same with 48 MiB offered): 16 MiB is above that and
  // half the total. Without backpressure the router takes all 32 MiB and the container never stalls.
  const total = 32 * MiB;
  const bound = 16 * MiB;
  const container = await startFloodingContainer({ totalBytes: total, chunkBytes: 64 * 1024, stalledBytes: 2 * MiB });
  closers.push(() => container.close());
  const events = await invoke(container.url);
  const flood = container.floods[0]!; // the router posted before it answered 200
  const outcome = await Promise.race([flood.stalled.then(() => 'stalled'), flood.finished.then(() => 'finished')]);
  expect(outcome).toBe('stalled');
  expect(flood.flushed()).toBeLessThanOrEqual(bound); // the caller has read nothing yet

  const hash = createHash('sha256');
  let received = 0;
  for (let next = await events.next(); !next.done; next = await events.next()) {
    const bytes = next.value.PayloadPart?.Bytes;
    expect(bytes).toBeInstanceOf(Uint8Array);
    hash.update(bytes!);
    received += bytes!.byteLength;
  }
  expect(received).toBe(total);
  expect(hash.digest('hex')).toBe(flood.digest);
}, 60_000);

test.each<Breakage>(['drop', 'reset'])(
  "the container's body breaks off (%s): the caller gets what came before it, then a ModelStreamError",
  async (how) => {
    const container = await startBreakingContainer();
    closers.push(() => container.close());
    const events = await invoke(container.url);
    await expect(events.next()).resolves.toMatchObject({
      value: { PayloadPart: { Bytes: new Uint8Array(1000).fill(1) } },
    });
    container.breakAll(how);
    const error = await events.next().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelStreamError);
    expect(error).toMatchObject({ ErrorCode: 'ModelStreamError' });
  },
);
