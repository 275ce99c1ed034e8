// End to end on loopback: echo LLM -> agent server -> (direct WebSocket | local SageMaker router)
// -> Kokoro container on the stand-in model -> SSE and WebSocket callers.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { EchoProvider } from '../llm/echo.ts';
import { OpenAIProvider } from '../llm/openai.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import { SageMakerResponseStreamTransport } from '../tts/response-stream-transport.ts';
import type { AgentServer } from './app.ts';
import { turnEventSchema } from '@kokoro-speech/protocol';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { joinedText, sentencesOf, shape, textOf } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { startFakeOpenAI } from '../testing/fake-llm-servers.ts';
import { localEndpoint, routedAgents } from '../testing/routed-container.ts';

const PROMPT =
  'Streaming speech starts speaking early, because the first clause of a long sentence is spoken at once. ' +
  'The rest follows in whole sentences. It costs $3.50 a month.\n\nThat is all.';
const fastEcho = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 });

const { agent, direct, routed } = routedAgents(fastEcho);

function checkTurn(events: PipelineEvent[]) {
  for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
  const s = shape(events);
  expect(s[0]).toBe('start');
  expect(s.slice(-2)).toEqual(['metrics', 'done']);
  expect(textOf(events)).toBe(PROMPT);
  const sentences = sentencesOf(events);
  expect(joinedText(sentences)).toBe(PROMPT.replace(/\s+/g, ' '));
  expect(sentences[0]!.text).toBe('Streaming speech starts speaking early,');
  for (const x of sentences) {
    expect(x.seqs).toEqual(x.seqs.map((_, i) => i));
    expect(x.bytes % 2).toBe(0);
    expect(x.bytes / 48).toBeCloseTo(x.duration_ms!, 0); // pcm_s16le at 24 kHz
  }
  const metrics = events.find((e) => e.type === 'metrics');
  expect(metrics).toMatchObject({ sentences: sentences.length, first_audio_ms: expect.any(Number) });
  return sentences;
}

describe.each([
  ['direct WebSocket', () => direct()],
  ['SageMaker bidi stream via the local router', () => new SageMakerBidiTransport(localEndpoint(routed().router))],
  [
    'SageMaker response streams via the local router',
    () => new SageMakerResponseStreamTransport(localEndpoint(routed().router)),
  ],
])('agent server, TTS over %s', (_name, transport) => {
  let server: AgentServer;
  beforeAll(async () => (server = await agent(transport())));

  test('SSE turn: ordered events, each sentence with its audio, sample counts match durations', async () => {
    const { status, events } = await sseTurn(server.url, { prompt: PROMPT });
    expect(status).toBe(200);
    expect((events[0] as { request_id?: string }).request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[0]).toMatchObject({ type: 'start', sample_rate: 24000, format: 'pcm_s16le' });
    checkTurn(events);
  });

  test('WebSocket: two turns on one socket, audio as binary frames after each sentence', async () => {
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: PROMPT });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 1);
      caller.send({ type: 'prompt', prompt: PROMPT, sample_rate: 16000, speed: 1.5 });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 2);
      const first = checkTurn(caller.turn(0));
      expect(caller.turn(1)[0]).toMatchObject({ type: 'start', sample_rate: 16000 });
      // Faster speech is shorter; at 16 kHz there are 32 bytes per ms.
      const second = sentencesOf(caller.turn(1));
      for (const x of second) expect(x.bytes / 32).toBeCloseTo(x.duration_ms!, 0);
      expect(second.reduce((a, x) => a + x.duration_ms!, 0)).toBeLessThan(
        first.reduce((a, x) => a + x.duration_ms!, 0),
      );
    } finally {
      caller.close();
    }
  });
});

describe('agent server: concurrency', () => {
  test('concurrent SSE turns each get their own text and audio', async () => {
    const server = await agent(direct());
    const prompts = [
      PROMPT,
      'A different answer for the second caller, with its own words. And a second sentence.',
      'Third caller here. Short.',
    ];
    const turns = await Promise.all(prompts.map((prompt) => sseTurn(server.url, { prompt })));
    turns.forEach(({ events }, i) => {
      expect(textOf(events)).toBe(prompts[i]);
      const sentences = sentencesOf(events);
      expect(joinedText(sentences)).toBe(prompts[i]!.replace(/\s+/g, ' '));
      for (const x of sentences) expect(x.bytes / 48).toBeCloseTo(x.duration_ms!, 0);
    });
    const ids = turns.map(({ events }) => (events[0] as { request_id: string }).request_id);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('agent server: cancel and disconnect', () => {
  test('WebSocket cancel ends the turn with done{cancelled}; nothing of it follows; the socket goes on', async () => {
    const server = await agent(direct(), { llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 300 }) });
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: PROMPT.repeat(4) });
      await caller.until((events) => events.some((e) => e.type === 'audio'));
      caller.send({ type: 'cancel' });
      await caller.until((events) => events.some((e) => e.type === 'done'));
      expect(caller.events.at(-1)).toEqual({ type: 'done', cancelled: true });
      const count = caller.events.length;
      caller.send({ type: 'prompt', prompt: 'Short one, after the cancel. It still works.' });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 2);
      const next = caller.turn(1);
      expect(caller.events.length).toBeGreaterThan(count);
      expect(next[0]?.type).toBe('start');
      expect(next.at(-1)).toEqual({ type: 'done' });
    } finally {
      caller.close();
    }
  });

  test('a new prompt during a turn cancels it first (barge-in)', async () => {
    const server = await agent(direct(), { llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 300 }) });
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: PROMPT.repeat(4) });
      await caller.until((events) => events.some((e) => e.type === 'sentence'));
      caller.send({ type: 'prompt', prompt: 'New question. Answer it.' });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 2);
      expect(caller.turn(0).at(-1)).toEqual({ type: 'done', cancelled: true });
      const second = caller.turn(1);
      expect(
        second
          .filter((e) => e.type === 'text')
          .map((e) => (e as { delta: string }).delta)
          .join(''),
      ).toBe('New question. Answer it.');
    } finally {
      caller.close();
    }
  });

  test('an SSE caller that disconnects cancels the LLM stream and the turn; /ping goes back to Healthy', async () => {
    // Left open after its last chunk, so the fake sees the agent leave however slowly the turn runs.
    const fake = await startFakeOpenAI({ chunkDelayMs: 20, fault: { kind: 'stall', afterChunks: Infinity } });
    try {
      const server = await agent(direct(), { llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }) });
      const controller = new AbortController();
      let busy: unknown;
      await sseTurn(
        server.url,
        { prompt: PROMPT.repeat(3) },
        {
          controller,
          onEvent: (e) => {
            if (e.type === 'audio' && !controller.signal.aborted) {
              void fetch(`${server.url}/ping`).then(async (r) => {
                busy = await r.json();
                controller.abort();
              });
            }
          },
        },
      );
      expect(busy).toMatchObject({ status: 'HealthyBusy' });
      await fake.clientGone(); // the agent ended its LLM request
      for (;;) {
        const ping = (await (await fetch(`${server.url}/ping`)).json()) as {
          status: string;
          time_of_last_update: number;
        };
        expect(Number.isInteger(ping.time_of_last_update)).toBe(true);
        if (ping.status === 'Healthy') break;
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await fake.close();
    }
  });
});
