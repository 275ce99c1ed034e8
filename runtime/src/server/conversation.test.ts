// Conversations end to end on loopback: echo model (the real Strands agent loop) -> agent server
// -> (direct WebSocket | local SageMaker router) -> Kokoro container on the stand-in model ->
// SSE and WebSocket callers: memory across turns, tools mid-answer, the history cut at what the
// caller heard, isolation of sessions, bounds, persistence, and bad input.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool, type Message, type ModelStreamEvent, type Storage, type StreamOptions } from '@strands-agents/sdk';
import { LocalFileStorage, S3Storage } from '@strands-agents/sdk/storage';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3StandIn } from '@kokoro-speech/weights/testing';
import { pino } from 'pino';
import { z } from 'zod';
import { turnEventSchema, type ToolEvent } from '@kokoro-speech/protocol';
import {
  LOCAL_CREDENTIALS,
  startLocalSageMakerRouter,
  type LocalSageMakerRouter,
} from '@kokoro-speech/sagemaker/router';
import { EchoModel, EchoProvider, echoReply } from '../llm/echo.ts';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { NOTHING_HEARD } from '../conversation/heard.ts';
import { startAgentServer, type AgentServer, type AgentServerOptions } from './app.ts';
import { sentencesOf, startTestContainer, type TestContainer } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { startFakeOpenAI } from '../testing/fake-llm-servers.ts';

const LONG =
  'This answer is long, so that the caller can cut it short while it plays. ' +
  'The second sentence of it goes on for a while with more words. ' +
  'A third sentence follows it here. And a fourth one ends the answer.';
const fastEcho = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 });

/**
 * The echo model at 60 tokens/s, except that its answer to LONG stops after `prefix` until the
 * turn is cancelled: the turn is still running when the caller cuts it, however slow the machine
 * (the echo model paces its tokens by the wall clock, so on a machine that falls behind on speech
 * the whole answer could be spoken before the cut arrives).
 */
class HeldEchoModel extends EchoModel {
  readonly #prefix: string;

  constructor(prefix: string) {
    super({ firstTokenMs: 0, tokensPerSecond: 60 });
    this.#prefix = prefix;
  }

  override async *stream(messages: Message[], options: StreamOptions = {}): AsyncIterable<ModelStreamEvent> {
    const held = echoReply(messages).text === LONG;
    let text = '';
    for await (const event of super.stream(messages, options)) {
      if (event.type === 'modelContentBlockDeltaEvent' && event.delta.type === 'textDelta') {
        if (held && text.length >= this.#prefix.length) await untilAborted(options.cancelSignal);
        text += event.delta.text;
      }
      yield event;
    }
  }
}
class HeldEcho extends EchoProvider {
  override readonly model: EchoModel;

  /** Holds LONG after its first `sentences` sentences and the first word of the next. */
  constructor(sentences: number) {
    super({ firstTokenMs: 0, tokensPerSecond: 60 });
    const parts = LONG.split(/(?<=\. )/);
    this.model = new HeldEchoModel(parts.slice(0, sentences).join('') + parts[sentences]!.split(' ')[0]);
  }
}
const untilAborted = (signal?: AbortSignal) =>
  new Promise<never>((_, reject) => {
    signal?.throwIfAborted();
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

let container: TestContainer;
let router: LocalSageMakerRouter;
const agents: AgentServer[] = [];
const dirs: string[] = [];
async function agent(tts: TtsTransport, extra: Partial<AgentServerOptions> = {}) {
  const server = await startAgentServer({ llm: fastEcho, tts, ...extra });
  agents.push(server);
  return server;
}
const direct = () => new WebSocketTransport({ url: container.server.wsUrl });
const viaSageMaker = () =>
  new SageMakerBidiTransport({
    endpointName: 'kokoro-local',
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
  });

beforeAll(async () => {
  container = await startTestContainer();
  router = await startLocalSageMakerRouter({ containerUrl: container.server.url });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await router?.close();
  await container?.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

let counter = 0;
const sessionId = (tag = 'test') => `${tag}-session-${String(++counter).padStart(4, '0')}-0123456789abcdef`;
const textOf = (events: PipelineEvent[]) =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { delta: string }).delta)
    .join('');
const storedText = (messages: readonly Message[]) =>
  messages.map(
    (m) => `${m.role}: ${m.content.map((b) => (b.type === 'textBlock' ? b.text : `[${b.type}]`)).join(' ')}`,
  );
/** What the proportional rule keeps of `text` after `fraction` of its audio: whole words only. */
const partOf = (text: string, fraction: number) =>
  text
    .slice(0, Math.floor(fraction * text.length))
    .replace(/\S*$/, '')
    .trimEnd();

async function ask(server: AgentServer, prompt: string, session?: string, extra: object = {}) {
  const { status, events } = await sseTurn(server.url, {
    prompt,
    ...(session ? { session_id: session } : {}),
    ...extra,
  });
  expect(status).toBe(200);
  for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
  return { events, text: textOf(events) };
}

describe.each([
  ['direct WebSocket', direct],
  ['SageMaker bidi stream via the local router', viaSageMaker],
])('conversations, TTS over %s', (_name, transport) => {
  let server: AgentServer;
  beforeAll(async () => (server = await agent(transport())));

  test('SSE: a session remembers its turns (session_id or the AgentCore header); another session does not', async () => {
    const a = sessionId('memory');
    const first = await ask(server, 'My name is Ada.', a);
    expect(first.events[0]).toMatchObject({ type: 'start', session_id: a });
    expect((await ask(server, 'What did I say before?', a)).text).toBe('You said: My name is Ada.');
    // The same session through the header AgentCore sets.
    const { events } = await sseTurn(
      server.url,
      { prompt: 'What did you say before?' },
      { headers: { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': a } },
    );
    expect(textOf(events)).toBe('I said: You said: My name is Ada.');
    expect((await ask(server, 'What did I say before?', sessionId('other'))).text).toBe(
      'You have not said anything before.',
    );
    // No session: one-shot, as before.
    const oneShot = await ask(server, 'What did I say before?');
    expect(oneShot.text).toBe('You have not said anything before.');
    expect(oneShot.events[0]).not.toHaveProperty('session_id');
  });

  test('WebSocket: the connection is one conversation; another socket is another', async () => {
    const caller = await WsCaller.connect(server.wsUrl);
    const other = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: 'The code is 4711.' });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 1);
      caller.send({ type: 'prompt', prompt: 'What did I say before?' });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 2);
      expect(textOf(caller.turn(1))).toBe('You said: The code is 4711.');
      other.send({ type: 'prompt', prompt: 'What did I say before?' });
      await other.until((e) => e.some((x) => x.type === 'done'));
      expect(textOf(other.events)).toBe('You have not said anything before.');
    } finally {
      caller.close();
      other.close();
    }
  });

  test('WebSocket: a cancel with played_ms cuts the running turn at what was heard', async () => {
    const slow = await agent(transport(), { llm: new HeldEcho(2) });
    const caller = await WsCaller.connect(slow.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: LONG });
      // The events as they were at the second sentence_end: the third sentence may start at once.
      const [s0, s1] = sentencesOf(await caller.until((e) => e.filter((x) => x.type === 'sentence_end').length === 2));
      const played = s0!.duration_ms! + s1!.duration_ms! / 2;
      caller.send({ type: 'cancel', played_ms: played });
      await caller.until((e) => e.some((x) => x.type === 'done'));
      expect(caller.events.at(-1)).toEqual({ type: 'done', cancelled: true });
      // Computed as the rule does (the same floating-point fraction), so that a word end is not a coin toss.
      const heard = `${s0!.text} ${partOf(s1!.text, (played - s0!.duration_ms!) / s1!.duration_ms!)}`;
      caller.send({ type: 'prompt', prompt: 'What did you say before?' });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 2);
      expect(textOf(caller.turn(1))).toBe(`I said: ${heard}`);
    } finally {
      caller.close();
    }
  });

  test('WebSocket: a cancel with played_ms after done cuts that turn; played_ms 0 keeps nothing of it', async () => {
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: LONG });
      await caller.until((e) => e.some((x) => x.type === 'done'));
      const [s0] = sentencesOf(caller.events);
      caller.send({ type: 'cancel', played_ms: s0!.duration_ms! });
      caller.send({ type: 'prompt', prompt: 'What did you say before?' });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 2);
      expect(textOf(caller.turn(1))).toBe(`I said: ${s0!.text}`);
      // Stopped before a sample played: the answer is kept as "nothing heard".
      caller.send({ type: 'prompt', prompt: LONG });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 3);
      caller.send({ type: 'cancel', played_ms: 0 });
      caller.send({ type: 'prompt', prompt: 'What did you say before?' });
      await caller.until((e) => e.filter((x) => x.type === 'done').length === 4);
      expect(textOf(caller.turn(3))).toBe(`I said: ${NOTHING_HEARD}`);
    } finally {
      caller.close();
    }
  });

  test('SSE: a disconnect cuts at the audio delivered (bounded by the wall clock); the next turn reports the real position', async () => {
    const slow = await agent(transport(), { llm: new HeldEcho(1) });
    const session = sessionId('sse-cut');
    const controller = new AbortController();
    const asked = performance.now();
    let firstAudio = 0;
    let cutAt = 0;
    const { events } = await sseTurn(
      slow.url,
      { prompt: LONG, session_id: session },
      {
        controller,
        onEvent: (e) => {
          if (e.type === 'audio') firstAudio ||= performance.now();
          if (e.type === 'sentence_end' && !controller.signal.aborted) {
            cutAt = performance.now();
            controller.abort();
          }
        },
      },
    );
    const [s0] = sentencesOf(events);
    const conversation = slow.sessions.get(session);
    for (let i = 0; i < 200 && conversation.busy; i++) await sleep(10);
    const cut = conversation.lastTurn!.cut!;
    const result = conversation.lastTurn!.result!;
    // Without a report: the audio delivered, bounded by the wall clock (at the agent) from its first
    // audio to the cancel; so never more than the caller received, nor than the time since it asked.
    const delivered = result.sentences.reduce((a, s) => a + s.deliveredMs, 0);
    expect(cut.played_ms).toBe(Math.min(delivered, result.endedAt - result.firstAudioAt!));
    expect(cut.played_ms).toBeLessThanOrEqual(s0!.duration_ms! + 1);
    expect(cut.played_ms).toBeLessThanOrEqual(performance.now() - asked);
    expect(firstAudio).toBeGreaterThan(0);
    expect(cutAt).toBeGreaterThan(0);
    // The next turn of the session says what the caller really played: the first sentence.
    const next = await ask(slow, 'What did you say before?', session, { previous_played_ms: s0!.duration_ms });
    expect(next.text).toBe(`I said: ${s0!.text}`);
    expect(conversation.lastTurn!.cut).toBeNull();
  });

  test('sessions are isolated: SSE and WebSocket conversations at once, each remembers only itself', async () => {
    const ids = [sessionId('iso-each'), sessionId('iso-each'), sessionId('iso-each'), sessionId('iso-each')];
    const bySse = ids.slice(0, 2).map(async (id, n) => {
      await ask(server, `The SSE word is ${n}.`, id);
      return (await ask(server, 'What did I say before?', id)).text;
    });
    const byWs = ids.slice(2).map(async (id, n) => {
      const caller = await WsCaller.connect(server.wsUrl);
      try {
        caller.send({ type: 'prompt', prompt: `The socket word is ${n}.`, session_id: id });
        await caller.until((e) => e.some((x) => x.type === 'done'));
        caller.send({ type: 'prompt', prompt: 'What did I say before?', session_id: id });
        await caller.until((e) => e.filter((x) => x.type === 'done').length === 2);
        return textOf(caller.turn(1));
      } finally {
        caller.close();
      }
    });
    expect(await Promise.all([...bySse, ...byWs])).toEqual([
      'You said: The SSE word is 0.',
      'You said: The SSE word is 1.',
      'You said: The socket word is 0.',
      'You said: The socket word is 1.',
    ]);
  });

  test('a tool mid-answer over SSE and WebSocket: text before it spoken, tool events, the answer after it', async () => {
    const lookup = tool({
      name: 'lookup',
      description: 'Looks something up.',
      inputSchema: z.object({ what: z.string() }),
      callback: async ({ what }) => (await sleep(300), `${what} is 42`),
    });
    const withTools = await agent(transport(), { tools: { tools: [lookup] } });
    const prompt =
      'Let me look that up, it takes a moment.<tool name="lookup">{"what": "the answer"}</tool> So {result}.';
    const check = (events: PipelineEvent[]) => {
      expect(textOf(events)).toBe('Let me look that up, it takes a moment. So the answer is 42.');
      const tools = events.filter((e): e is ToolEvent => e.type === 'tool');
      expect(tools.map((t) => [t.name, t.state])).toEqual([
        ['lookup', 'started'],
        ['lookup', 'ended'],
      ]);
      expect(tools[1]!.duration_ms!).toBeGreaterThanOrEqual(300);
      const sentences = events.filter((e) => e.type === 'sentence') as { text: string; text_ms: number }[];
      const before = sentences.filter((s) => s.text_ms <= tools[0]!.started_ms);
      expect(before.map((s) => s.text).join(' ')).toBe('Let me look that up, it takes a moment.');
      expect(sentencesOf(events).map((s) => s.text)).toEqual([...before.map((s) => s.text), 'So the answer is 42.']);
    };
    check((await ask(withTools, prompt, sessionId('tools'))).events);
    const caller = await WsCaller.connect(withTools.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt });
      await caller.until((e) => e.some((x) => x.type === 'done'));
      check(caller.events);
    } finally {
      caller.close();
    }
  });
});

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
