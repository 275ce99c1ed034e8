// A fault at each stage of a turn, through the real agent server on loopback, over SSE and the
// WebSocket, against the real container on the stand-in model with MAX_SESSIONS=3 behind a proxy
// that counts its sessions at the wire: whatever breaks, the caller gets exactly one terminal
// event (`done`, after an `error` naming the stage's real code), nothing of the turn after it, and
// no container session stays open. Faults come in at the wire (a fake LLM server, the proxy) or
// through a dependency the turn takes (the normaliser, the TTS transport, the tools).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from '@strands-agents/sdk';
import { z } from 'zod';
import { EchoProvider } from '../llm/echo.ts';
import type { LlmProvider } from '../llm/types.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import type { TtsEvent, TtsSession, TtsTransport } from '../tts/types.ts';
import { createLogger } from '@kokoro-speech/protocol/server';
import { logCapture } from '@kokoro-speech/protocol/testing';
import { startAgentServer, type AgentServer, type AgentServerOptions } from './app.ts';
import { startTestContainer, until, type TestContainer } from '../testing/harness.ts';
import { startSessionCounter, type SessionCounter } from '../testing/session-counter.ts';
import { startFakeLlm } from '../testing/fake-llm-provider.ts';
import type { FakeFault } from '../testing/fake-llm-servers.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';

const ANSWER = 'The first sentence is spoken. The second one follows it. The third one ends the answer.';
/** An answer still being written and spoken when a fault comes at its first audio. */
const LONG = ANSWER.repeat(8);

let container: TestContainer;
let counter: SessionCounter;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  container = await startTestContainer({ maxSessions: 3 });
  counter = await startSessionCounter(container.server.port);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await counter?.close();
  await container?.close();
});

const echo = () => new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 400 });
const tts = () => new WebSocketTransport({ url: counter.wsUrl, retry: { budgetMs: 0, reconnectBudgetMs: 0 } });
/** Every agent's log lines, in order. */
const logs = logCapture();
const logLines = logs.lines;

async function agent(options: Partial<AgentServerOptions> = {}): Promise<AgentServer> {
  const server = await startAgentServer({
    llm: echo(),
    tts: tts(),
    logger: createLogger('kokoro-agent', 'info', logs.stream),
    llmTimeouts: { firstTokenMs: 1000, idleMs: 1000 },
    ...options,
  });
  closers.push(() => server.close());
  return server;
}

/** The normaliser of the text front end, throwing on a piece that holds `marker`. */
const throwingOn = (marker: string) => (piece: string) => {
  if (piece.includes(marker)) throw new Error(`injected: cannot normalise ${JSON.stringify(piece)}`);
  return piece;
};

/** A TTS transport whose sessions deliver one malformed event after the first audio chunk. */
function malformedAfterFirstAudio(inner: TtsTransport): TtsTransport {
  return {
    name: inner.name,
    open: async (settings, signal, observer) => {
      const session = await inner.open(settings, signal, observer);
      const events = async function* (): AsyncGenerator<TtsEvent> {
        for await (const event of session.events()) {
          yield event;
          if (event.type === 'audio') yield { ...event, data: undefined } as unknown as TtsEvent;
        }
      };
      const wrapped: TtsSession = {
        ready: session.ready,
        speak: (text, id, options) => session.speak(text, id, options),
        cancel: () => session.cancel(),
        end: () => session.end(),
        events,
        close: () => session.close(),
      };
      return wrapped;
    },
  };
}

const waitTool = tool({
  name: 'wait',
  description: 'Waits, then answers.',
  inputSchema: z.object({ ms: z.number() }),
  callback: async ({ ms }, context) => {
    await sleep(ms, undefined, context ? { signal: context.cancelSignal } : {});
    return 'done waiting';
  },
});

async function llmFault(fault: FakeFault): Promise<LlmProvider> {
  const { fake, provider } = await startFakeLlm('openai', {
    reply: () => ({ text: ANSWER }),
    chunkChars: 8,
    chunkDelayMs: 5,
    fault,
  });
  closers.push(() => fake.close());
  return provider;
}

type Via = 'sse' | 'ws';
interface Stage {
  name: string;
  code: string;
  server: () => Promise<AgentServer>;
  prompt?: string;
  voice?: string;
  /** Called at each event the caller gets (e.g. to break the TTS stream at the first audio). */
  onEvent?: (event: PipelineEvent) => void;
}

const servers = new Map<string, AgentServer>();
const once = (name: string, make: () => Promise<AgentServer>) => async () =>
  servers.get(name) ?? servers.set(name, await make()).get(name)!;

const STAGES: Stage[] = [
  { name: 'voice check', code: 'unknown_voice', voice: 'af_nobody', server: once('plain', () => agent()) },
  {
    name: 'TTS session open',
    code: 'tts_unavailable',
    server: once('plain', () => agent()),
  },
  {
    name: 'LLM first token',
    code: 'llm_timeout',
    server: once('silent', async () => agent({ llm: await llmFault({ kind: 'silent' }) })),
  },
  {
    name: 'mid-answer',
    code: 'llm_error',
    server: once('garbage', async () => agent({ llm: await llmFault({ kind: 'garbage', afterChunks: 5 }) })),
  },
  {
    name: 'tool call (its filler cannot be spoken)',
    code: 'text_error',
    prompt: 'Let me look.<tool name="wait">{"ms": 3000}</tool> It says {result}.',
    server: once('tool', () =>
      agent({
        tools: { tools: [waitTool], filler: { text: 'One moment please.', afterMs: 0 } },
        normalize: throwingOn('One moment'),
      }),
    ),
  },
  {
    name: 'TTS mid-stream',
    code: 'tts_unavailable',
    prompt: LONG,
    server: once('plain', () => agent()),
    onEvent: (event) => {
      if (event.type !== 'audio') return;
      counter.refuseNew(true); // the stream cannot be re-opened either
      counter.cutAll();
    },
  },
  {
    name: 'normaliser throw',
    code: 'text_error',
    server: once('normaliser', () => agent({ normalize: throwingOn('second') })),
  },
  {
    name: 'event pump',
    code: 'internal',
    server: once('pump', () => agent({ tts: malformedAfterFirstAudio(tts()) })),
  },
];

/** Runs a turn, returning every event the caller got until its terminal event. */
async function run(via: Via, server: AgentServer, body: object, onEvent?: (e: PipelineEvent) => void) {
  if (via === 'sse') return (await sseTurn(server.url, body, onEvent ? { onEvent } : {})).events;
  const caller = await WsCaller.connect(server.wsUrl);
  try {
    let seen = 0;
    caller.send({ type: 'prompt', ...body });
    await caller.until((events) => {
      for (; seen < events.length; seen++) onEvent?.(events[seen]!);
      return events.some((e) => e.type === 'done');
    });
    // Anything the failed turn still sent would come before the answer to this bad message.
    caller.send({ type: 'nonsense' });
    const all = await caller.until((events) => events.at(-1)?.type === 'error' && events.at(-2)?.type === 'done');
    return all.slice(0, -1);
  } finally {
    caller.close();
  }
}

function expectOneTerminal(events: PipelineEvent[], code: string): void {
  expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
  expect(events.at(-1)).toEqual({ type: 'done' });
  expect(events.slice(-3).map((e) => e.type)).toEqual(['metrics', 'error', 'done']);
  expect(events.at(-2)).toMatchObject({ code });
}

describe.each<Via>(['sse', 'ws'])('a fault at each stage of the turn (%s)', (via) => {
  test.each(STAGES.map((s) => [s.name, s] as const))(
    '%s: one terminal event naming it, no container session left open',
    async (_name, stage) => {
      const server = await stage.server();
      const refuse = stage.name === 'TTS session open';
      counter.refuseNew(refuse);
      try {
        const events = await run(
          via,
          server,
          { prompt: stage.prompt ?? ANSWER, ...(stage.voice ? { voice: stage.voice } : {}) },
          stage.onEvent,
        );
        expectOneTerminal(events, stage.code);
        expect((events.at(-2) as { message: string }).message).not.toBe('internal error');
      } finally {
        counter.refuseNew(false);
      }
      await counter.settled();
      expect(counter.open).toBe(0);
    },
  );

  test('a caller gone mid-answer: its turn is cancelled (logged at info), no session left open', async () => {
    const server = await once('plain', () => agent())();
    const before = logLines.length;
    const prompt = LONG; // still being spoken when the caller goes
    if (via === 'sse') {
      const controller = new AbortController();
      await sseTurn(
        server.url,
        { prompt },
        {
          controller,
          onEvent: (e) => e.type === 'audio' && controller.abort(),
        },
      );
    } else {
      const caller = await WsCaller.connect(server.wsUrl);
      caller.send({ type: 'prompt', prompt });
      await caller.until((events) => events.some((e) => e.type === 'audio'));
      caller.close();
    }
    await counter.settled();
    expect(counter.open).toBe(0);
    const logged = () => logLines.slice(before).find((l) => l['msg'] === 'turn');
    await until(() => logged() !== undefined); // the server logs once the turn's slot is free
    expect(logged()).toMatchObject({ level: 30, outcome: 'cancelled' });
    expect(logLines.slice(before).some((l) => (l['level'] as number) >= 50)).toBe(false);
  });
});

test('a failed turn is logged at error with its ids and the real cause', async () => {
  const server = await once('normaliser', () => agent({ normalize: throwingOn('second') }))();
  const before = logLines.length;
  const { events } = await sseTurn(server.url, { prompt: ANSWER, session_id: 'faults-session-0001-0123456789abcdef' });
  const requestId = (events[0] as { request_id: string }).request_id;
  const turnLine = () => logLines.slice(before).find((l) => l['msg'] === 'turn');
  await until(() => turnLine() !== undefined);
  const line = turnLine();
  expect(line).toMatchObject({
    level: 50,
    request_id: requestId,
    session: 'faults-session-0001-0123456789abcdef',
    outcome: 'failed',
    error: { code: 'text_error', message: expect.stringMatching(/injected: cannot normalise/) },
  });
});

test('MAX_SESSIONS=3: after three bad prompts the fourth good turn is served', async () => {
  const bad = await once('normaliser', () => agent({ normalize: throwingOn('second') }))();
  for (let i = 0; i < 3; i++) expectOneTerminal((await sseTurn(bad.url, { prompt: ANSWER })).events, 'text_error');
  const good = await once('plain', () => agent())();
  const { events } = await sseTurn(good.url, { prompt: ANSWER });
  expect(events.some((e) => e.type === 'error')).toBe(false);
  expect(events.at(-1)).toEqual({ type: 'done' });
  await counter.settled();
  expect(counter.open).toBe(0);
});
