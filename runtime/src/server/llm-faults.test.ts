// Broken and stalled LLMs through the real agent server on loopback, for every provider with a
// wire (OpenAI-compatible, Bedrock ConverseStream: fake servers speaking those formats), the real
// container on the stand-in model, an SSE caller: each fault ends the turn with an error naming
// what was wrong, after the text written before it has been spoken; a slow but alive LLM is not
// cut off.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { LlmProvider } from '../llm/types.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { sentencesOf, startTestContainer, type TestContainer } from '../testing/harness.ts';
import type { FakeFault, FakeLlmOptions, FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { startFakeLlm, type LlmWire } from '../testing/fake-llm-provider.ts';
import { sseTurn } from '../testing/turn-clients.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';

const ANSWER = 'The first sentence arrives whole. The second one too. The third is never finished by the model.';
const CHUNK = 8;
const BEFORE_FAULT = 6; // chunks written before the fault: "The first sentence arrives whole. The sec"
const WRITTEN = ANSWER.slice(0, CHUNK * BEFORE_FAULT);

let container: TestContainer;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => (container = await startTestContainer()));
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await container?.close();
});

async function llm(wire: LlmWire, options: FakeLlmOptions): Promise<{ fake: FakeLlmServer; provider: LlmProvider }> {
  const started = await startFakeLlm(wire, { reply: () => ({ text: ANSWER }), chunkChars: CHUNK, ...options });
  closers.push(() => started.fake.close());
  return started;
}

async function agent(provider: LlmProvider, llmTimeouts: { firstTokenMs: number; idleMs: number }) {
  const server: AgentServer = await startAgentServer({
    llm: provider,
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    llmTimeouts,
  });
  closers.push(() => server.close());
  return server;
}

const textOf = (events: PipelineEvent[]) =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { delta: string }).delta)
    .join('');
const spokenOf = (events: PipelineEvent[]) =>
  sentencesOf(events)
    .map((s) => s.text)
    .join(' ');

const FAULTS: [string, FakeFault, string, RegExp][] = [
  [
    'sends nothing at all',
    { kind: 'silent' },
    'llm_timeout',
    /LLM did not start its answer within 1\.5 s \(LLM_FIRST_TOKEN_SECONDS\)/,
  ],
  [
    'stalls after a few tokens',
    { kind: 'stall', afterChunks: BEFORE_FAULT },
    'llm_timeout',
    /LLM stopped writing for 1 s in the middle of its answer \(LLM_IDLE_SECONDS\)/,
  ],
  [
    'ends without a finish reason',
    { kind: 'truncate', afterChunks: BEFORE_FAULT },
    'llm_error',
    /cut short|ended before the model finished its message \(no stop reason\)/,
  ],
  [
    'writes garbage after a few tokens',
    { kind: 'garbage', afterChunks: BEFORE_FAULT },
    'llm_error',
    /is not Server-Sent Events: "<html><body><h1>504|event stream is malformed or was cut short/,
  ],
  [
    'answers 200 with an HTML page',
    { kind: 'html' },
    'llm_error',
    /answered HTTP 200 with content-type text\/html; charset=utf-8, not an (AWS )?event stream: "<!DOCTYPE html>/,
  ],
];

describe.each<LlmWire>(['openai', 'bedrock'])('an LLM that breaks (%s wire)', (wire) => {
  test.each(FAULTS)(
    'one that %s ends the turn with its error, after speaking what it wrote',
    async (_name, fault, code, message) => {
      const { fake, provider } = await llm(wire, { fault, chunkDelayMs: 5 });
      const server = await agent(provider, { firstTokenMs: 1500, idleMs: 1000 });
      const { status, events } = await sseTurn(server.url, { prompt: 'Tell me three things.' });
      expect(status).toBe(200);
      const error = events.find((e) => e.type === 'error');
      expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
      expect((error as { message: string }).message).toMatch(new RegExp(`^${wire} LLM`));
      expect(events.slice(-3).map((e) => e.type)).toEqual(['metrics', 'error', 'done']);
      expect(events.at(-1)).toEqual({ type: 'done' }); // a failure, not a cancel
      const written = fault.kind === 'silent' || fault.kind === 'html' ? '' : WRITTEN;
      expect(textOf(events)).toBe(written);
      // What was written is spoken before the error: every sentence with its audio.
      expect(spokenOf(events).replace(/\s+/g, ' ')).toBe(written.trim());
      if (written) expect(sentencesOf(events).every((s) => s.bytes > 0)).toBe(true);
      if (code === 'llm_timeout') await fake.clientGone(); // the stalled request was given up
      // Bounded by the LLM's own bounds: the error's code (above) names the bound that ended the
      // turn, never MAX_TURN_SECONDS's `timeout` (300 s, ten times this test's timeout).
    },
  );
});

describe.each<LlmWire>(['openai', 'bedrock'])('a slow but alive LLM (%s wire)', (wire) => {
  test('a token a second is not cut off by a 3 s idle timeout: the whole answer, no error', async () => {
    const { provider } = await llm(wire, { chunkDelayMs: 1000, chunkChars: 40 });
    const server = await agent(provider, { firstTokenMs: 3000, idleMs: 3000 });
    const { events } = await sseTurn(server.url, { prompt: 'Take your time.' });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(textOf(events)).toBe(ANSWER);
    expect(spokenOf(events)).toBe(ANSWER);
    expect(events.at(-1)).toEqual({ type: 'done' });
  });
});
