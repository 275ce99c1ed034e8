// How long a caller's stream may live, with short limits configured: an answer that would outlive
// MAX_STREAM_SECONDS ends with a `stream_limit` error event and `done` (SSE and WebSocket; the
// WebSocket then closes with 1000), and the conversation goes on from a new stream; a WebSocket
// with no message for WS_IDLE_SECONDS gets `session_idle` and is closed (1000), any message from
// the caller and any running turn keep it open. Echo model (the real agent loop) and the Kokoro
// container on the stand-in model, on loopback.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { startTestContainer, testSessionId, textOf, type TestContainer } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';

/** About 10 s of echo at 12 tokens a second: far past the short limits below. */
const SLOW = Array.from({ length: 12 }, (_, i) => `Sentence number ${i + 1} takes its time.`).join(' ');
let container: TestContainer;
const agents: AgentServer[] = [];
beforeAll(async () => {
  container = await startTestContainer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await container?.close();
});
async function agent(streams: { maxStreamMs?: number; wsIdleMs?: number }, tokensPerSecond = 12) {
  const server = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    streams,
  });
  agents.push(server);
  return server;
}
const sessionId = testSessionId;
const closed = (caller: WsCaller) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    caller.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
const ending = (code: string) => ({ type: 'error', code, message: expect.stringMatching(/reconnect/) });

describe('MAX_STREAM_SECONDS', () => {
  test('SSE: an answer that would outlive the stream ends with stream_limit, then done; the session goes on', async () => {
    const server = await agent({ maxStreamMs: 1500 });
    const session = sessionId('sse-limit');
    const { status, events } = await sseTurn(server.url, { prompt: SLOW, session_id: session });
    expect(status).toBe(200);
    expect(events.slice(-2)).toEqual([
      { type: 'error', code: 'stream_limit', message: expect.stringMatching(/MAX_STREAM_SECONDS/) },
      { type: 'done' },
    ]);
    const said = textOf(events);
    expect(said.length).toBeGreaterThan(0);
    // Cut by the limit, before the answer's end (the echo model cannot write it all sooner than ~10 s).
    expect(SLOW.startsWith(said)).toBe(true);
    expect(said.length).toBeLessThan(SLOW.length);
    const next = await sseTurn(server.url, { prompt: 'What did I say before?', session_id: session });
    // The conversation goes on (the cut turn is remembered as far as it was delivered).
    expect(textOf(next.events)).toMatch(/^You said: Sentence number 1 takes its time\./);
  });

  test('WebSocket: the running turn ends with stream_limit and done, the socket closes (1000); a new socket goes on', async () => {
    const server = await agent({ maxStreamMs: 1500 });
    const header = { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': sessionId('ws-limit') };
    const caller = await WsCaller.connect(server.wsUrl, header);
    const close = closed(caller);
    caller.send({ type: 'prompt', prompt: SLOW });
    expect(await close).toEqual({ code: 1000, reason: 'stream limit' });
    const errors = caller.events.filter((e) => e.type === 'error');
    expect(errors).toEqual([
      { type: 'error', code: 'stream_limit', message: expect.stringMatching(/MAX_STREAM_SECONDS/) },
    ]);
    expect(caller.events.at(-1)).toEqual({ type: 'done' });
    const again = await WsCaller.connect(server.wsUrl, header);
    try {
      again.send({ type: 'prompt', prompt: 'What did I say before?' });
      await again.until((e) => e.some((x) => x.type === 'done'));
      expect(textOf(again.events)).toMatch(/^You said: Sentence number 1 takes its time\./);
    } finally {
      again.close();
    }
  });

  test('WebSocket with no turn running: a stream_limit event, then the close', async () => {
    const server = await agent({ maxStreamMs: 800 });
    const caller = await WsCaller.connect(server.wsUrl);
    expect(await closed(caller)).toEqual({ code: 1000, reason: 'stream limit' });
    expect(caller.events).toEqual([ending('stream_limit')]);
  });
});

describe('WS_IDLE_SECONDS', () => {
  test('no message: session_idle, then the close (1000 idle)', async () => {
    const server = await agent({ wsIdleMs: 600 });
    const caller = await WsCaller.connect(server.wsUrl);
    expect(await closed(caller)).toEqual({ code: 1000, reason: 'idle' });
    expect(caller.events).toEqual([ending('session_idle')]);
  });

  test('messages from the caller and a running turn keep the socket open; idle after them, it closes', async () => {
    const server = await agent({ wsIdleMs: 700 }, 40);
    const caller = await WsCaller.connect(server.wsUrl);
    let open = true;
    const close = closed(caller).then((c) => ((open = false), c));
    for (let i = 0; i < 6; i++) {
      caller.send({ type: 'voices' });
      await sleep(250);
    }
    expect(open).toBe(true);
    // A turn of ~2.5 s, far longer than the idle limit.
    caller.send({ type: 'prompt', prompt: SLOW.slice(0, 300) });
    await caller.until((e) => e.some((x) => x.type === 'done'));
    expect(open).toBe(true);
    expect(caller.events.filter((e) => e.type === 'error')).toEqual([]);
    expect(await close).toEqual({ code: 1000, reason: 'idle' });
    expect(caller.events.at(-1)).toEqual(ending('session_idle'));
  });
});
