// Conversations end to end on loopback: echo model (the real Strands agent loop) -> agent server
// -> (direct WebSocket | local SageMaker router) -> Kokoro container on the stand-in model ->
// SSE and WebSocket callers: memory across turns, tools mid-answer, the history cut at what the
// caller heard (isolation, bounds, persistence and bad input: conversation-bounds.test.ts).
import { beforeAll, describe, expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from '@strands-agents/sdk';
import { z } from 'zod';
import type { ToolEvent } from '@kokoro-speech/protocol';
import { EchoProvider } from '../llm/echo.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { NOTHING_HEARD } from '../conversation/heard.ts';
import type { AgentServer } from './app.ts';
import { sentencesOf, textOf } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { routedAgents } from '../testing/routed-container.ts';
import { ask, HeldEcho, LONG, partOf, sessionId } from '../testing/conversation-fixtures.ts';

const {
  agent,
  direct,
  bidi: viaSageMaker,
} = routedAgents(new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }), {});

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
