// The agent server's answers to bad requests, end to end on loopback (echo LLM -> agent server ->
// Kokoro container on the stand-in model): refused bodies, routes, unknown voices, bad WebSocket
// messages, the turn limit. The good paths: agent-server.test.ts.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { EchoProvider } from '../llm/echo.ts';
import type { AgentServer } from './app.ts';
import { shape } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { routedAgents } from '../testing/routed-container.ts';

const PROMPT =
  'Streaming speech starts speaking early, because the first clause of a long sentence is spoken at once. ' +
  'The rest follows in whole sentences. It costs $3.50 a month.\n\nThat is all.';
const { agent, direct } = routedAgents(new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }));

describe('agent server: bad requests', () => {
  let server: AgentServer;
  beforeAll(async () => (server = await agent(direct(), { limits: { maxRequestBytes: 4096 } })));

  test.each([
    ['not JSON', '{"prompt": ', /not valid JSON/],
    ['no prompt', {}, /prompt: /],
    ['empty prompt', { prompt: '' }, /prompt: prompt must not be empty/],
    ['speed out of range', { prompt: 'hi', speed: 9 }, /speed: /],
    ['unknown format', { prompt: 'hi', format: 'mp3' }, /format: /],
    ['unknown field', { prompt: 'hi', temperature: 1 }, /temperature/],
    ['bad mode', { prompt: 'hi', mode: 'fast' }, /mode: /],
  ])('POST /invocations with %s -> 400 invalid_request', async (_name, body, message) => {
    const { status, events } = await sseTurn(server.url, body);
    expect(status).toBe(400);
    expect(events[0]).toMatchObject({
      type: 'error',
      code: 'invalid_request',
      message: expect.stringMatching(message),
    });
  });

  test('routes: 413, 405, 404, /ping', async () => {
    const big = await sseTurn(server.url, { prompt: 'x'.repeat(5000) });
    expect(big).toMatchObject({ status: 413, events: [{ code: 'payload_too_large' }] });
    const get = await fetch(`${server.url}/invocations`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ error: { code: 'method_not_allowed', message: 'use POST /invocations' } });
    const missing = await fetch(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /GET \/ping, POST \/invocations, GET \/ws/,
    );
    const ping = await fetch(`${server.url}/ping`);
    expect(ping.status).toBe(200);
    expect(await ping.json()).toEqual({ status: 'Healthy', time_of_last_update: expect.any(Number) });
  });

  test('an unknown voice is an error event naming the voices', async () => {
    const { status, events } = await sseTurn(server.url, { prompt: 'Hello there, friend.', voice: 'zz_nobody' });
    expect(status).toBe(200);
    expect(shape(events).slice(-3)).toEqual(['metrics', 'error', 'done']);
    expect(events.some((e) => e.type === 'audio' || e.type === 'sentence')).toBe(false);
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'unknown_voice',
      message: expect.stringMatching(/zz_nobody.*af_heart/),
    });
  });

  test('WebSocket: bad messages get an error event and the socket stays usable', async () => {
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send('nonsense');
      caller.send({ type: 'speak', text: 'x' });
      caller.send({ type: 'prompt' });
      await caller.until((events) => events.length === 3);
      expect(caller.events).toEqual([
        { type: 'error', code: 'invalid_request', message: expect.stringMatching(/not valid JSON/) },
        { type: 'error', code: 'invalid_request', message: 'message type must be "prompt" or "cancel", got "speak"' },
        { type: 'error', code: 'invalid_request', message: expect.stringMatching(/^prompt: /) },
      ]);
      // JSON in a binary frame is accepted too.
      caller.ws.send(Buffer.from(JSON.stringify({ type: 'prompt', prompt: 'Fine now. Thanks.' })), { binary: true });
      await caller.until((events) => events.some((e) => e.type === 'done'));
      expect(caller.events.at(-1)).toEqual({ type: 'done' });
      caller.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      await caller.until((events) => events.at(-1)?.type === 'error');
      expect(caller.events.at(-1)).toEqual({
        type: 'error',
        code: 'audio_before_listen',
        message:
          'binary frames must carry a JSON message: audio goes only after {"type":"listen"} opened a voice session',
      });
    } finally {
      caller.close();
    }
  });

  test('over the turn limit: 503 busy with Retry-After', async () => {
    const limited = await agent(direct(), {
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 100 }),
      limits: { maxConcurrentTurns: 1 },
    });
    const controller = new AbortController();
    let second: Response | undefined;
    await sseTurn(
      limited.url,
      { prompt: PROMPT },
      {
        controller,
        onEvent: (e) => {
          if (e.type === 'start') {
            void fetch(`${limited.url}/invocations`, { method: 'POST', body: JSON.stringify({ prompt: 'hi' }) }).then(
              (r) => {
                second = r;
                controller.abort();
              },
            );
          }
        },
      },
    );
    expect(second?.status).toBe(503);
    expect(second?.headers.get('retry-after')).toBe('1');
    expect(await second?.json()).toMatchObject({ error: { code: 'busy' } });
  });
});
