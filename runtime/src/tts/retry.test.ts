// A refused session is retried before any audio, within the retry budget, on every transport:
// the container's 503 at the upgrade (direct), the same passed back by the SageMaker router as a
// ModelError (bidi: the next stream may land on another instance; response stream: per call), an
// `overloaded` error as the first answer. Past the budget, or with a budget of zero, the failure
// is a TtsTransportError `overloaded`; once audio has started nothing is retried here.
import { afterEach, describe, expect, test } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startRefusingGate, type RefusingGate } from '../testing/refusing-gate.ts';
import { localEndpoint } from '../testing/routed-fake.ts';
import { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
import { SageMakerResponseStreamTransport } from './response-stream-transport.ts';
import { TtsTransportError, type TtsEvent, type TtsSession } from './types.ts';
import { WebSocketTransport } from './websocket-transport.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function fakeBehindGate(): Promise<{ fake: FakeContainer; gate: RefusingGate }> {
  const fake = await startFakeContainer();
  const gate = await startRefusingGate(Number(new URL(fake.url).port));
  closers.push(
    () => fake.close(),
    () => gate.close(),
  );
  return { fake, gate };
}

/** Speaks one sentence and collects the session's events until it is done (or fails). */
async function speakOne(session: TtsSession, text = 'Hello there.') {
  const events: TtsEvent[] = [];
  session.speak(text, 'u1');
  const ended = session.end();
  try {
    for await (const event of session.events()) events.push(event);
    await ended;
    return { events, error: null };
  } catch (error) {
    await ended.catch(() => {});
    return { events, error };
  }
}

const retries = () => {
  const seen: { attempt: number; delayMs: number; reason: string }[] = [];
  return { seen, onRetry: (info: (typeof seen)[number]) => void seen.push(info) };
};

describe('direct WebSocket', () => {
  test('two refusals at the upgrade, then a session: the audio arrives, two retries', async () => {
    const { gate } = await fakeBehindGate();
    gate.refuseNext(2);
    const counter = retries();
    const transport = new WebSocketTransport({
      url: `ws://127.0.0.1:${gate.port}`,
      retry: { budgetMs: 5000, onRetry: counter.onRetry },
    });
    const session = await transport.open({});
    closers.push(() => session.close());
    const { events, error } = await speakOne(session);
    expect(error).toBeNull();
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['audio_start', 'audio', 'audio_end']));
    expect(counter.seen.map((r) => r.attempt)).toEqual([1, 2]);
    expect(counter.seen[0]!.reason).toMatch(/refused the session \(HTTP 503\): one more session would make/);
    expect(gate.refused).toBe(2);
  });

  test('a retry budget of zero: the first refusal is an immediate, clear overloaded error', async () => {
    const { gate } = await fakeBehindGate();
    gate.refuseAll(true);
    const transport = new WebSocketTransport({ url: `ws://127.0.0.1:${gate.port}`, retry: { budgetMs: 0 } });
    const error = await transport.open({}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TtsTransportError);
    expect(error).toMatchObject({ code: 'overloaded', retryable: true });
    expect((error as Error).message).toMatch(
      /refused the session 1 time in \d+ ms \(retry budget 0 ms, TTS_RETRY_BUDGET_MS\): .*HTTP 503/,
    );
    expect(gate.refused).toBe(1);
  });

  test('refused for longer than the budget: overloaded after the retries the budget allows', async () => {
    const { gate } = await fakeBehindGate();
    gate.refuseAll(true);
    const counter = retries();
    const transport = new WebSocketTransport({
      url: `ws://127.0.0.1:${gate.port}`,
      retry: { budgetMs: 300, baseMs: 50, maxDelayMs: 50, random: () => 0.999, onRetry: counter.onRetry },
    });
    await expect(transport.open({})).rejects.toMatchObject({ code: 'overloaded' });
    // ~50 ms apart within 300 ms: a handful of retries, each a new connection.
    expect(counter.seen.length).toBeGreaterThanOrEqual(2);
    expect(counter.seen.length).toBeLessThanOrEqual(6);
    expect(gate.refused).toBe(counter.seen.length + 1);
  });
});

/** A protocol-v1 peer scripted per connection: `answer(n, text)` says what connection n does with a text. */
async function scriptedPeer(answer: (connection: number, id: string, ws: WebSocket) => void) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  let connections = 0;
  wss.on('connection', (ws) => {
    const n = ++connections;
    ws.send(JSON.stringify({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le', voices: [] }));
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type: string; id?: string };
      if (message.type === 'text') answer(n, message.id!, ws);
      if (message.type === 'end') setTimeout(() => ws.send(JSON.stringify({ type: 'done' })), 20);
    });
  });
  closers.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
  const speak = (ws: WebSocket, id: string) => {
    ws.send(JSON.stringify({ type: 'audio_start', id, index: 0 }));
    ws.send(Buffer.alloc(480));
    ws.send(
      JSON.stringify({ type: 'audio_end', id, index: 0, samples: 240, duration_ms: 10, synthesis_ms: 1, queue_ms: 0 }),
    );
  };
  const overloaded = (ws: WebSocket, id: string | null) =>
    ws.send(JSON.stringify({ type: 'error', id, code: 'overloaded', message: 'queue full, retry later' }));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    connections: () => connections,
    speak,
    overloaded,
  };
}

describe('overloaded as the first answer', () => {
  test('the first utterance refused before any audio: a new session, the utterance again, no error event', async () => {
    const peer = await scriptedPeer((n, id, ws) => (n === 1 ? peer.overloaded(ws, id) : peer.speak(ws, id)));
    const counter = retries();
    const session = await new WebSocketTransport({
      url: peer.url,
      retry: { budgetMs: 5000, onRetry: counter.onRetry },
    }).open({});
    closers.push(() => session.close());
    const { events, error } = await speakOne(session);
    expect(error).toBeNull();
    expect(events.map((e) => e.type)).toEqual(['audio_start', 'audio', 'audio_end']);
    expect(peer.connections()).toBe(2);
    expect(counter.seen).toHaveLength(1);
  });

  test('an overloaded error before ready (the server is full) is a refusal retried like a 503', async () => {
    let refusals = 1;
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    closers.push(() => new Promise<void>((resolve) => wss.close(() => resolve())));
    wss.on('connection', (ws) => {
      if (refusals-- > 0) {
        ws.send(
          JSON.stringify({
            type: 'error',
            id: null,
            code: 'overloaded',
            message: 'too many sessions (MAX_SESSIONS=1)',
          }),
        );
        return void ws.close(1013);
      }
      ws.send(JSON.stringify({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le', voices: [] }));
    });
    const counter = retries();
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    const session = await new WebSocketTransport({ url, retry: { budgetMs: 5000, onRetry: counter.onRetry } }).open({});
    session.close();
    expect(counter.seen.map((r) => r.reason)).toEqual(['too many sessions (MAX_SESSIONS=1)']);
  });

  test('never after audio has started: a later refusal is that utterance’s error, the session goes on', async () => {
    const peer = await scriptedPeer((_n, id, ws) => (id === 'a' ? peer.speak(ws, id) : peer.overloaded(ws, id)));
    const session = await new WebSocketTransport({ url: peer.url, retry: { budgetMs: 5000 } }).open({});
    closers.push(() => session.close());
    session.speak('First.', 'a');
    session.speak('Second.', 'b');
    const ended = session.end();
    const events: TtsEvent[] = [];
    for await (const event of session.events()) events.push(event);
    await ended;
    expect(events.map((e) => e.type)).toEqual(['audio_start', 'audio', 'audio_end', 'error']);
    expect(events.at(-1)).toMatchObject({ id: 'b', code: 'overloaded' });
    expect(peer.connections()).toBe(1);
  });
});

describe('through the SageMaker router', () => {
  test('bidi: a refusal passed back as ModelError(503) is retried, and the next stream lands on the other instance', async () => {
    const { fake, gate } = await fakeBehindGate();
    gate.refuseAll(true); // instance 0 refuses everything; instance 1 is the fake itself
    const router = await startLocalSageMakerRouter({ containerUrls: [gate.url, fake.url] });
    closers.push(() => router.close());
    const counter = retries();
    const transport = new SageMakerBidiTransport({
      ...localEndpoint(router, 'kokoro'),
      retry: { budgetMs: 5000, onRetry: counter.onRetry },
    });
    const session = await transport.open({});
    closers.push(() => session.close());
    const { error } = await speakOne(session);
    expect(error).toBeNull();
    expect(counter.seen).toHaveLength(1);
    expect(counter.seen[0]!.reason).toMatch(/the TTS container refused \(HTTP 503\): one more session would make/);
    expect(gate.refused).toBe(1);
  });

  test('bidi: budget zero through the router is an immediate overloaded error', async () => {
    const { gate } = await fakeBehindGate();
    gate.refuseAll(true);
    const router = await startLocalSageMakerRouter({ containerUrl: gate.url });
    closers.push(() => router.close());
    const transport = new SageMakerBidiTransport({ ...localEndpoint(router, 'kokoro'), retry: { budgetMs: 0 } });
    await expect(transport.open({})).rejects.toMatchObject({ code: 'overloaded' });
  });

  test('response stream: refused calls are retried per utterance; past the budget the session fails overloaded', async () => {
    const { gate } = await fakeBehindGate();
    const router = await startLocalSageMakerRouter({ containerUrl: gate.url });
    closers.push(() => router.close());
    const counter = retries();
    const transport = (budgetMs: number) =>
      new SageMakerResponseStreamTransport({
        ...localEndpoint(router, 'kokoro'),
        retry: { budgetMs, onRetry: counter.onRetry },
      });
    gate.refuseNext(2);
    const session = await transport(5000).open({});
    const { events, error } = await speakOne(session);
    expect(error).toBeNull();
    expect(events.filter((e) => e.type === 'audio_start')).toHaveLength(1);
    expect(counter.seen).toHaveLength(2);
    session.close();

    gate.refuseAll(true);
    const failing = await transport(0).open({});
    const failed = await speakOne(failing);
    expect(failed.error).toBeInstanceOf(TtsTransportError);
    expect(failed.error).toMatchObject({ code: 'overloaded' });
    expect((failed.error as Error).message).toMatch(/refused utterance u1 1 time .*TTS_RETRY_BUDGET_MS/);
    failing.close();
  });
});
