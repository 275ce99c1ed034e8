// WebSocketTransport against the fake protocol-v1 peer (and, in real-container.test.ts, the real one).
import { describe, expect, test, afterAll, beforeAll } from '@jest/globals';
import { startCutProxy } from '../testing/cut-proxy.ts';
import { fakeAudio, startFakeContainer } from '@kokoro-speech/protocol/testing';
import type { FakeContainer } from '@kokoro-speech/protocol/testing';
import { transportSuite } from '../testing/transport-suite.ts';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { WebSocketTransport } from './websocket-transport.ts';
import { TtsTransportError } from './types.ts';

transportSuite('websocket (fake peer)', async () => {
  const fake = await startFakeContainer();
  const proxy = await startCutProxy(Number(new URL(fake.url).port));
  return {
    transport: new WebSocketTransport({ url: fake.wsUrl }),
    viaProxy: new WebSocketTransport({ url: `ws://127.0.0.1:${proxy.port}` }),
    proxy,
    expectedSamples: (text, rate) => fakeAudio(text, rate).length / 2,
    close: async () => {
      await proxy.close();
      await fake.close();
    },
  };
});

describe('WebSocketTransport specifics', () => {
  let fake: FakeContainer;
  beforeAll(async () => {
    fake = await startFakeContainer();
  });
  afterAll(() => fake.close());

  test('rejects a URL that is not ws:// or wss://', () => {
    expect(() => new WebSocketTransport({ url: 'http://x' })).toThrow(/ws:\/\/ or wss:\/\//);
  });

  test('sends config first, then text messages with ids, as JSON text frames', async () => {
    const transport = new WebSocketTransport({ url: fake.url.replace('http', 'ws') });
    fake.received.length = 0;
    const session = await transport.open({ voice: 'am_adam', speed: 1.2 });
    session.speak('Hello.', 'h1');
    await session.end();
    expect(fake.received).toEqual([
      { binary: false, message: { type: 'config', voice: 'am_adam', speed: 1.2 } },
      { binary: false, message: { type: 'text', text: 'Hello.', id: 'h1' } },
      { binary: false, message: { type: 'end' } },
    ]);
    session.close();
  });

  test('refuses bad settings before connecting, and an unreachable URL with a TtsTransportError', async () => {
    const transport = new WebSocketTransport({ url: fake.wsUrl });
    await expect(transport.open({ speed: 9 })).rejects.toThrow(/invalid voice settings/);
    const closed = await startCutProxy(1);
    await closed.close();
    await expect(new WebSocketTransport({ url: `ws://127.0.0.1:${closed.port}` }).open({})).rejects.toBeInstanceOf(
      TtsTransportError,
    );
  });

  test('a container-side close mid-answer is recovered the same way', async () => {
    const transport = new WebSocketTransport({ url: fake.wsUrl });
    const session = await transport.open({});
    const ids = ['One two three.', 'Four five six.', 'Seven.'].map((t) => session.speak(t));
    const seen: string[] = [];
    let closed = false;
    for await (const event of session.events()) {
      seen.push(event.type);
      if (event.type === 'audio' && !closed) {
        closed = true;
        fake.closeSessions(1011);
      }
      if (event.type === 'audio_end' && event.id === ids[2]) break;
    }
    expect(seen).toContain('reconnected');
    session.close();
  });

  test('a break while idle reconnects lazily on the next speak, without a reconnected event', async () => {
    const session = await new WebSocketTransport({ url: fake.wsUrl }).open({});
    const iterator = session.events()[Symbol.asyncIterator]();
    session.speak('Before.', 'before');
    const types: string[] = [];
    for (let next = await iterator.next(); ; next = await iterator.next()) {
      types.push(next.value!.type);
      if (next.value!.type === 'audio_end') break;
    }
    fake.closeSessions(1001);
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the close arrive while idle
    session.speak('After.', 'after');
    const ending = session.end();
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) types.push(next.value.type);
    await ending;
    expect(types.filter((t) => t === 'audio_end')).toHaveLength(2);
    expect(types).not.toContain('reconnected');
    session.close();
  });

  test('a peer that never sends ready fails open() instead of hanging', async () => {
    const silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => silent.once('listening', resolve));
    const port = (silent.address() as AddressInfo).port;
    await expect(
      new WebSocketTransport({ url: `ws://127.0.0.1:${port}`, connectTimeoutMs: 200 }).open({}),
    ).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('no ready message'),
    });
    silent.clients.forEach((client) => client.terminate());
    await new Promise((resolve) => silent.close(resolve));
  });

  test('paused while a re-opened stream waits for its ready: the ready is read and the stream starts paused', async () => {
    // A peer that breaks the first stream mid-answer and holds the second one's ready until the
    // session has been paused (its socket is open then: the session has sent its config).
    const peer = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => peer.once('listening', resolve));
    const configured = Promise.withResolvers<void>();
    const paused = Promise.withResolvers<void>();
    let streams = 0;
    peer.on('connection', (socket) => {
      const stream = ++streams;
      const send = (message: object) => socket.send(JSON.stringify(message));
      socket.on('message', async (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string };
        if (message.type === 'config' && stream === 2) {
          configured.resolve();
          await paused.promise;
        }
        if (message.type === 'config')
          send({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le', voices: ['af_heart'] });
        if (message.type === 'text') {
          send({ type: 'audio_start', id: message.id, index: 0 });
          socket.send(Buffer.alloc(4000));
          if (stream === 1) return socket.terminate();
          const end = { type: 'audio_end', id: message.id, index: 0, samples: 2000, duration_ms: 83, synthesis_ms: 1 };
          send({ ...end, queue_ms: 0 });
        }
        if (message.type === 'end') send({ type: 'done' });
      });
    });
    const port = (peer.address() as AddressInfo).port;
    const session = await new WebSocketTransport({ url: `ws://127.0.0.1:${port}`, connectTimeoutMs: 1000 }).open({});
    session.speak('Hello there.', 'h');
    const types: string[] = [];
    const reading = (async () => {
      for await (const event of session.events()) types.push(event.type);
    })();
    await configured.promise;
    session.pause!();
    paused.resolve();
    // Longer than the ready timeout: a ready left unread while paused would have failed the session.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    session.resume!();
    await session.end();
    await reading;
    // The second rendition is spliced where the first broke off: its 4000 bytes were all delivered.
    expect(types).toEqual(['audio_start', 'audio', 'reconnected', 'audio_end']);
    session.close();
    peer.clients.forEach((client) => client.terminate());
    await new Promise((resolve) => peer.close(resolve));
  });
});
