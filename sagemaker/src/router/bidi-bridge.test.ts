// The bidirectional bridge at its edges, with a request built as the official JavaScript client
// builds it: a client that stops reading holds the container back (what the router buffers stays
// bounded, measured as bytes out of the container against bytes the client got), and a container
// whose WebSocket breaks (a reset, a frame no peer may send, no close frame) ends the client's
// stream with a ModelStreamError, before and after the client's end of input.
import { afterEach, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { decodeResponseEvent, readMessages } from '../client/index.ts';
import type { ResponseEvent } from '../client/index.ts';
import { startBreakingContainer, startFloodingContainer } from '../testing/misbehaving-containers.ts';
import type { Breakage } from '../testing/misbehaving-containers.ts';
import { openAsOfficialClient } from '../testing/official-js-client.ts';
import type { OfficialCall } from '../testing/official-js-client.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { startLocalSageMakerRouter } from './router.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function routerFor(containerUrl: string) {
  const router = await startLocalSageMakerRouter({ containerUrl, endpointName: 'kokoro' });
  closers.push(() => router.close());
  return router;
}

const call = (endpoint: string) =>
  openAsOfficialClient({
    endpoint,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    input: { EndpointName: 'kokoro' },
  });

/** The response's events, decoded one at a time as the caller pulls them. */
const events = (c: OfficialCall): AsyncIterator<ResponseEvent> =>
  (async function* () {
    for await (const message of readMessages(c.response.body as AsyncIterable<Uint8Array>))
      yield decodeResponseEvent(message)!;
  })();

const MiB = 1024 * 1024;

describe('a client that stops reading', () => {
  test('holds the container back: bytes out of the container minus bytes the client got stay bounded; nothing is lost', async () => {
    // 16 MiB offered. While the client reads nothing, what left the container can only be in the
    // router (its HTTP/2 stream's buffer and one message), the client's flow-control window and
    // the two loopback connections' kernel buffers (4-5 MiB measured here, mostly the container's
    // send buffer): 8 MiB is well above that and well below the total. Without backpressure the
    // router takes all 16 MiB and the container never stalls.
    const total = 16 * MiB;
    const bound = 8 * MiB;
    const container = await startFloodingContainer({ totalBytes: total, chunkBytes: 64 * 1024, stalledBytes: 2 * MiB });
    closers.push(() => container.close());
    const router = await routerFor(container.url);
    const c = await call(router.url);
    expect(c.response.statusCode).toBe(200);
    // The router opens the client's stream once the container's WebSocket is open: its flood has begun.
    const flood = container.floods[0]!;
    const outcome = await Promise.race([flood.stalled.then(() => 'stalled'), flood.finished.then(() => 'finished')]);
    expect(outcome).toBe('stalled');
    expect(flood.flushed()).toBeLessThanOrEqual(bound); // the client has read nothing yet

    // Now it reads everything: nothing lost, nothing reordered, and the stream is still open.
    const hash = createHash('sha256');
    let received = 0;
    for (const it = events(c); received < total;) {
      const { value } = await it.next();
      expect(value).toMatchObject({ type: 'PayloadPart' });
      hash.update((value as { bytes: Uint8Array }).bytes);
      received += (value as { bytes: Uint8Array }).bytes.byteLength;
    }
    expect(received).toBe(total);
    expect(hash.digest('hex')).toBe(flood.digest);
    c.end();
    c.close();
  });
});

describe('a container whose WebSocket breaks', () => {
  test.each<Breakage>(['reset', 'invalid-frame', 'drop'])(
    '%s mid-stream: the client gets the message before it, then a ModelStreamError',
    async (how) => {
      const container = await startBreakingContainer();
      closers.push(() => container.close());
      const router = await routerFor(container.url);
      const c = await call(router.url);
      const it = events(c);
      await expect(it.next()).resolves.toMatchObject({
        value: { type: 'PayloadPart', bytes: new Uint8Array([1, 2, 3]) },
      });
      container.breakAll(how);
      await expect(it.next()).resolves.toMatchObject({
        value: { type: 'ModelStreamError', errorCode: 'ModelStreamError' },
      });
      await expect(it.next()).resolves.toMatchObject({ done: true });
      c.close();
    },
  );

  test('after the client ended its input, a container that drops the connection instead of closing still breaks the stream', async () => {
    const container = await startBreakingContainer();
    closers.push(() => container.close());
    const router = await routerFor(container.url);
    const c = await call(router.url);
    const it = events(c);
    await it.next(); // the container's message: the session is open
    c.end(); // the router now closes the WebSocket and waits for the container's close
    expect([...(await container.heard()).subarray(0, 1)]).toEqual([0x88]); // FIN + close
    container.breakAll('reset');
    await expect(it.next()).resolves.toMatchObject({ value: { type: 'ModelStreamError' } });
    c.close();
  });
});
