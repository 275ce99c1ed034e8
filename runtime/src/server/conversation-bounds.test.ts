// Conversations end to end on loopback (echo model -> agent server -> Kokoro container on the
// stand-in model): isolation of sessions, bounds, persistence, and bad input (memory, tools and
// cuts over both transports: conversation.test.ts).
import { afterAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type Storage } from '@strands-agents/sdk';
import { LocalFileStorage, S3Storage } from '@strands-agents/sdk/storage';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3StandIn } from '@kokoro-speech/weights/testing';
import { pino } from 'pino';
import { z } from 'zod';
import { EchoProvider } from '../llm/echo.ts';
import { OpenAIProvider } from '../llm/openai.ts';
import { textOf } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { startFakeOpenAI } from '../testing/fake-llm-servers.ts';
import { routedAgents } from '../testing/routed-container.ts';
import { ask, HeldEcho, LONG, sessionId, storedText } from '../testing/conversation-fixtures.ts';

const { agent, direct } = routedAgents(new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }), {});
const dirs: string[] = [];
afterAll(async () => void (await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))));

describe('conversations: isolation', () => {
  test('16 sessions x 3 turns at once: each remembers only its own words', async () => {
    const server = await agent(direct(), { limits: { maxConcurrentTurns: 64 } });
    const ids = Array.from({ length: 16 }, () => sessionId('iso'));
    const answers = await Promise.all(
      ids.map(async (id, n) => {
        await ask(server, `My number is ${n}.`, id);
        await ask(server, `And my colour is number ${n * 7}.`, id);
        return (await ask(server, 'What did I say before?', id)).text;
      }),
    );
    expect(answers).toEqual(ids.map((_, n) => `You said: And my colour is number ${n * 7}.`));
    for (const [n, id] of ids.entries()) {
      const history = storedText(await server.sessions.get(id).messages());
      expect(history.join('\n')).toContain(`My number is ${n}.`);
      for (const m of ids.keys()) if (m !== n) expect(history.join('\n')).not.toContain(`My number is ${m}.`);
    }
  });

  test('a session used from a second WebSocket while a turn runs: the first turn is cancelled, no audio crosses', async () => {
    const slow = await agent(direct(), { llm: new HeldEcho(1) });
    const shared = sessionId('shared');
    const a = await WsCaller.connect(slow.wsUrl);
    const b = await WsCaller.connect(slow.wsUrl);
    try {
      a.send({ type: 'prompt', prompt: LONG, session_id: shared });
      await a.until((e) => e.some((x) => x.type === 'audio'));
      b.send({ type: 'prompt', prompt: 'Second caller here. Short.', session_id: shared });
      await a.until((e) => e.some((x) => x.type === 'done'));
      await b.until((e) => e.some((x) => x.type === 'done'));
      expect(a.events.at(-1)).toEqual({ type: 'done', cancelled: true });
      expect(b.events.at(-1)).toEqual({ type: 'done' });
      expect(textOf(b.events)).toBe('Second caller here. Short.');
      expect(textOf(a.events)).not.toContain('Second caller');
      const aIds = new Set(
        a.events.filter((e) => e.type === 'start').map((e) => (e as { request_id: string }).request_id),
      );
      const bStart = b.events.find((e) => e.type === 'start') as { request_id: string };
      expect(aIds.has(bStart.request_id)).toBe(false);
      expect(a.events.filter((e) => e.type === 'start')).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('conversations: bounds, persistence, bad input', () => {
  test('at most maxSessions live: the least recently active idle one goes; idle ones are swept', async () => {
    const server = await agent(direct(), { sessions: { maxSessions: 2, idleMs: 60_000 } });
    const [x, y, z] = [sessionId('bound'), sessionId('bound'), sessionId('bound')];
    await ask(server, 'Remember x.', x);
    await ask(server, 'Remember y.', y);
    await ask(server, 'Remember z.', z);
    expect(server.sessions.size).toBe(2);
    expect(server.sessions.has(x)).toBe(false);
    expect((await ask(server, 'What did I say before?', x)).text).toBe('You have not said anything before.');
    server.sessions.sweep(Date.now() + 61_000);
    expect(server.sessions.size).toBe(0);
  });

  test('a conversation survives the agent being recycled (file store); an unreachable store warns once, turns go on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-sessions-'));
    dirs.push(dir);
    const session = sessionId('persist');
    const first = await agent(direct(), { sessions: { storage: new LocalFileStorage(dir) } });
    await ask(first, 'My name is Grace.', session);
    await first.close();
    const second = await agent(direct(), { sessions: { storage: new LocalFileStorage(dir) } });
    expect((await ask(second, 'What did I say before?', session)).text).toBe('You said: My name is Grace.');

    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }),
    );
    const broken: Storage = {
      read: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')),
      write: () => new Promise(() => {}), // hangs
      delete: () => Promise.resolve(),
      list: () => Promise.resolve([]),
    };
    const third = await agent(direct(), { logger, sessions: { storage: broken } });
    const s = sessionId('broken-store');
    expect((await ask(third, 'Hello there, still working.', s)).text).toBe('Hello there, still working.');
    expect((await ask(third, 'What did I say before?', s)).text).toBe('You said: Hello there, still working.');
    expect((await ask(third, 'A third one.', sessionId('broken-store'))).text).toBe('A third one.');
    const warnings = lines.filter((l) => l.includes('session store unavailable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/ECONNREFUSED/);
  }, 60_000);

  test('S3 store (Strands S3Storage, on a local S3): sessions under the prefix, keyed by a hash of the id', async () => {
    const s3 = await startS3StandIn('foundation');
    try {
      const client = new S3Client({
        endpoint: s3.endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const storage = () => new S3Storage('foundation', { prefix: 'sessions/', s3Client: client });
      const session = sessionId('s3-persist');
      const first = await agent(direct(), { sessions: { storage: storage() } });
      await ask(first, 'My name is Lovelace.', session);
      await first.close();
      const keys = (await client.send(new ListObjectsV2Command({ Bucket: 'foundation' }))).Contents!.map((o) => o.Key!);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).toMatch(/^sessions\//);
        expect(key).not.toContain(session);
      }
      const second = await agent(direct(), { sessions: { storage: storage() } });
      expect((await ask(second, 'What did I say before?', session)).text).toBe('You said: My name is Lovelace.');
    } finally {
      await s3.close();
    }
  });

  test('a history over the model context: the conversation manager trims it, the turn does not fail', async () => {
    const fake = await startFakeOpenAI({
      chunkDelayMs: 1,
      failWhen: (r) =>
        r.messageCount > 3
          ? { status: 400, body: { error: { message: "This model's maximum context length is 50 tokens" } } }
          : undefined,
    });
    try {
      const server = await agent(direct(), { llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }) });
      const s = sessionId('overflow');
      for (const prompt of ['First question here.', 'Second question here.', 'Third question here.']) {
        const { events, text } = await ask(server, prompt, s);
        expect(events.some((e) => e.type === 'error')).toBe(false);
        expect(text).toBe(prompt);
      }
    } finally {
      await fake.close();
    }
  });

  test('malformed session ids and reports are clear invalid_request errors', async () => {
    const server = await agent(direct());
    const bad = await sseTurn(server.url, { prompt: 'hi', session_id: 'short' });
    expect(bad).toMatchObject({
      status: 400,
      events: [{ code: 'invalid_request', message: expect.stringMatching(/^session_id: must be 33-256 characters/) }],
    });
    const header = await sseTurn(
      server.url,
      { prompt: 'hi' },
      { headers: { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': 'bad id!' } },
    );
    expect(header).toMatchObject({
      status: 400,
      events: [
        {
          code: 'invalid_request',
          message: expect.stringMatching(/^X-Amzn-Bedrock-AgentCore-Runtime-Session-Id: must be/),
        },
      ],
    });
    const orphan = await sseTurn(server.url, { prompt: 'hi', previous_played_ms: 100 });
    expect(orphan).toMatchObject({
      status: 400,
      events: [{ message: expect.stringMatching(/previous_played_ms needs a session/) }],
    });
    const negative = await sseTurn(server.url, { prompt: 'hi', session_id: sessionId(), previous_played_ms: -1 });
    expect(negative).toMatchObject({
      status: 400,
      events: [{ message: expect.stringMatching(/^previous_played_ms: /) }],
    });

    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'cancel', played_ms: 100 });
      caller.send({ type: 'cancel', played_ms: 'soon' });
      caller.send({ type: 'prompt', prompt: 'Fine. Thanks.' });
      await caller.until((e) => e.some((x) => x.type === 'done'));
      caller.send({ type: 'cancel', session_id: sessionId('elsewhere') });
      await caller.until((e) => e.filter((x) => x.type === 'error').length === 3);
      expect(caller.events.filter((e) => e.type === 'error')).toEqual([
        {
          type: 'error',
          code: 'invalid_request',
          message: 'cancel: played_ms given, but this connection has had no turn of a conversation',
        },
        { type: 'error', code: 'invalid_request', message: expect.stringMatching(/^played_ms: /) },
        {
          type: 'error',
          code: 'invalid_request',
          message: expect.stringMatching(
            /^cancel: session_id ".*" is not the session of this connection's most recent turn$/,
          ),
        },
      ]);
    } finally {
      caller.close();
    }
    await expect(
      WsCaller.connect(server.wsUrl, { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': 'x' }),
    ).rejects.toThrow(/400/);
  });
});
