// A turn's `speed` reaches the container on every transport and over both caller protocols: on the
// stand-in model a piece is floor((tokens + 2) * 960 / speed) samples long, so every sentence of a
// turn at speed 2 has exactly half the samples of the same sentence at speed 1.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { EchoProvider } from '../llm/echo.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { sentencesOf } from '../testing/harness.ts';
import { localEndpoint, startRoutedContainer, type RoutedContainer } from '../testing/routed-container.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { SageMakerResponseStreamTransport } from '../tts/response-stream-transport.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import type { TtsTransport } from '../tts/types.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';

const PROMPT = 'Speed is set per turn. A faster turn is shorter, sentence by sentence.';

let routed: RoutedContainer;
const agents: AgentServer[] = [];

beforeAll(async () => void (routed = await startRoutedContainer()));
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await routed?.close();
});

/** Each sentence's text and its audio bytes. */
const sentenceBytes = (events: PipelineEvent[]) => sentencesOf(events).map((s) => [s.text, s.bytes] as const);

function expectHalf(normal: PipelineEvent[], fast: PipelineEvent[]) {
  const slow = sentenceBytes(normal);
  expect(slow.length).toBeGreaterThan(1);
  expect(slow.every(([, bytes]) => bytes > 0)).toBe(true);
  // The same sentences, each exactly half as long (the stand-in's samples divide by 2 exactly).
  expect(sentenceBytes(fast)).toEqual(slow.map(([text, bytes]) => [text, bytes / 2]));
}

describe.each([
  ['direct WebSocket', (): TtsTransport => new WebSocketTransport({ url: routed.container.server.wsUrl })],
  ['SageMaker bidi stream', (): TtsTransport => new SageMakerBidiTransport(localEndpoint(routed.router))],
  [
    'SageMaker response streams',
    (): TtsTransport => new SageMakerResponseStreamTransport(localEndpoint(routed.router)),
  ],
])('speed per turn, TTS over %s', (_name, transport) => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }),
      tts: transport(),
    });
    agents.push(server);
  });

  test('SSE: a turn at speed 2 has half the samples of one at speed 1', async () => {
    const normal = await sseTurn(server.url, { prompt: PROMPT, speed: 1 });
    const fast = await sseTurn(server.url, { prompt: PROMPT, speed: 2 });
    expect([normal.status, fast.status]).toEqual([200, 200]);
    expectHalf(normal.events, fast.events);
  });

  test('WebSocket: speed changes from one turn to the next on one socket (2, then the default 1)', async () => {
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: PROMPT, speed: 2 });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 1);
      caller.send({ type: 'prompt', prompt: PROMPT });
      await caller.until((events) => events.filter((e) => e.type === 'done').length === 2);
      expectHalf(caller.turn(1), caller.turn(0));
    } finally {
      caller.close();
    }
  });
});

describe('speed out of range', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }),
      tts: new WebSocketTransport({ url: routed.container.server.wsUrl }),
    });
    agents.push(server);
  });

  test.each([2.5, 0.25])('%s: SSE 400 and WebSocket error, invalid_request naming the range', async (speed) => {
    const { status, events } = await sseTurn(server.url, { prompt: 'hi', speed });
    expect(status).toBe(400);
    expect(events[0]).toMatchObject({ code: 'invalid_request', message: 'speed: must be between 0.5 and 2.0' });
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: 'hi', speed });
      const [error] = await caller.until((e) => e.some((x) => x.type === 'error'));
      expect(error).toMatchObject({
        type: 'error',
        code: 'invalid_request',
        message: 'speed: must be between 0.5 and 2.0',
      });
    } finally {
      caller.close();
    }
  });
});
