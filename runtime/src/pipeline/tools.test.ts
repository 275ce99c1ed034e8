// Tools mid-answer through the real pipeline (echo model's tool directives -> the Strands agent
// loop -> real tools -> the real container on the stand-in model): the text before a tool call is
// spoken at once, `tool` events frame the call, failing, hanging and huge tools become errors the
// model speaks about, and the filler plays only while a tool runs with nothing playing.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from '@strands-agents/sdk';
import { z } from 'zod';
import { turnEventSchema, type ToolEvent } from '@kokoro-speech/protocol';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { ToolBox, type ToolOptions } from '../tools/toolbox.ts';
import { runTurn, type PipelineEvent, type TurnContext } from './turn.ts';
import { sentencesOf, startTestContainer, type TestContainer } from '../testing/harness.ts';

let container: TestContainer;
let base: TurnContext;
beforeAll(async () => {
  container = await startTestContainer();
  base = {
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
  };
});
afterAll(async () => container?.close());

const wait = tool({
  name: 'wait',
  description: 'Waits, then answers.',
  inputSchema: z.object({ ms: z.number() }),
  callback: async ({ ms }, context) => {
    await sleep(ms, undefined, context ? { signal: context.cancelSignal } : {});
    return `waited ${ms} ms`;
  },
});
/** Events of the turn running now, as they are emitted (for tools that wait for one). */
let watcher: ((e: PipelineEvent) => void) | undefined;
/** Runs until the turn has spoken its filler (at most 10 s): the filler's order against the tool's
 *  end is then decided by the events, not by how fast a loaded machine plays the audio before it. */
const untilFiller = tool({
  name: 'until_filler',
  description: 'Answers once the filler was spoken.',
  inputSchema: z.object({}),
  callback: async () => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      watcher = (e) => {
        if (e.type !== 'sentence' || !e.filler) return;
        clearTimeout(timer);
        resolve();
      };
    });
    watcher = undefined;
    return 'ready';
  },
});
const broken = tool({
  name: 'broken',
  description: 'Always fails.',
  inputSchema: z.object({}),
  callback: () => {
    throw new Error('the database is down');
  },
});
const huge = tool({
  name: 'huge',
  description: 'Returns a lot.',
  inputSchema: z.object({}),
  callback: () => 'x'.repeat(50_000),
});

async function turn(prompt: string, tools: ToolOptions) {
  const events: PipelineEvent[] = [];
  const result = await runTurn(
    { ...base, tools: new ToolBox({ tools: [wait, untilFiller, broken, huge], ...tools }) },
    {
      request: { prompt },
      emit: (e) => {
        events.push(e);
        watcher?.(e);
      },
    },
  );
  for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
  const text = events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { delta: string }).delta)
    .join('');
  const tools_ = events.filter((e): e is ToolEvent => e.type === 'tool');
  return { events, result, text, tools: tools_ };
}

describe('tools mid-answer', () => {
  test('the text before the tool call is spoken at once (while the tool runs); the answer follows', async () => {
    const { events, result, text, tools } = await turn(
      'Let me look that up for you, it takes one moment.<tool name="wait">{"ms": 400}</tool> It says {result}. That is all.',
      {},
    );
    expect(result.outcome).toBe('completed');
    expect(text).toBe('Let me look that up for you, it takes one moment. It says waited 400 ms. That is all.');
    expect(tools.map((t) => [t.name, t.state])).toEqual([
      ['wait', 'started'],
      ['wait', 'ended'],
    ]);
    const [started, ended] = tools;
    expect(ended!.duration_ms!).toBeGreaterThanOrEqual(400);
    expect(ended!.error).toBeUndefined();
    // Every piece of the text before the tool call was complete and sent to Kokoro before the tool
    // started: the tool boundary flushed the segmenter instead of holding "it takes one moment." back.
    const before = result.sentences.filter((s) => s.cycle === 0);
    expect(before.map((s) => s.text).join(' ')).toBe('Let me look that up for you, it takes one moment.');
    for (const s of before) expect(s.readyMs).toBeLessThanOrEqual(started!.started_ms);
    expect(result.sentences.filter((s) => s.cycle === 1).every((s) => s.readyMs >= ended!.ended_ms!)).toBe(true);
    const sentences = sentencesOf(events);
    expect(sentences.map((s) => s.text).join(' ')).toBe(text);
    expect(result.sentences.map((s) => s.cycle)).toEqual(
      result.sentences.map((s) => (s.index < before.length ? 0 : 1)),
    );
    expect(started!.started_ms).toBeLessThanOrEqual(ended!.started_ms);
  });

  test('a failing tool, a hanging tool and a huge result become errors the model speaks about', async () => {
    const failing = await turn('Checking.<tool name="broken">{}</tool> The tool said: {result}', {});
    expect(failing.result.outcome).toBe('completed');
    expect(failing.tools.at(-1)).toMatchObject({ state: 'ended', error: expect.stringMatching(/database is down/) });
    expect(failing.text).toMatch(/The tool said: .*database is down/);

    const hanging = await turn('Checking.<tool name="wait">{"ms": 60000}</tool> The tool said: {result}', {
      limits: { timeoutMs: 200 },
    });
    expect(hanging.result.outcome).toBe('completed');
    expect(hanging.tools.at(-1)).toMatchObject({ error: expect.stringMatching(/did not answer within 200 ms/) });
    expect(hanging.tools.at(-1)!.duration_ms!).toBeLessThan(10_000);
    expect(hanging.text).toMatch(/The tool said: The tool wait did not answer within 200 ms/);

    const big = await turn('Checking.<tool name="huge">{}</tool> The tool said: {result}', {
      limits: { maxResultChars: 1000 },
    });
    expect(big.tools.at(-1)).toMatchObject({
      error: expect.stringMatching(/returned 50000 characters, over the limit of 1000/),
    });
    expect(big.text).not.toContain('xxxx');
  });

  test('an unknown tool is an error result too, not a dead turn', async () => {
    const { result, text } = await turn('Go.<tool name="nope">{}</tool> Then: {result}', {});
    expect(result.outcome).toBe('completed');
    expect(text).toMatch(/Then: .*nope.*not found/);
  });

  test('the filler plays while a tool runs with nothing playing, and not without one configured', async () => {
    const withFiller = await turn('Hm.<tool name="until_filler">{}</tool> Here it is: {result}.', {
      filler: { text: 'One moment, please.', afterMs: 100 },
    });
    const fillers = withFiller.events.filter((e) => e.type === 'sentence' && e.filler);
    expect(fillers).toHaveLength(1);
    expect(fillers[0]).toMatchObject({ text: 'One moment, please.' });
    // Between the tool's start and its end, and never part of the answer's text.
    const at = withFiller.events.indexOf(fillers[0]!);
    expect(at).toBeGreaterThan(withFiller.events.indexOf(withFiller.tools[0]!));
    expect(at).toBeLessThan(withFiller.events.indexOf(withFiller.tools[1]!));
    expect(withFiller.text).not.toContain('One moment');
    expect(withFiller.result.sentences.find((s) => s.kind === 'filler')?.text).toBe('One moment, please.');

    const without = await turn('Hm.<tool name="wait">{"ms": 700}</tool> Here it is: {result}.', {});
    expect(without.events.some((e) => e.type === 'sentence' && e.filler)).toBe(false);
  });

  test('no filler while the answer before the tool is still playing', async () => {
    // About 3 s of audio before the tool (40 ms per phoneme on the stand-in), a 300 ms tool.
    const { events } = await turn(
      'This first part of the answer is long enough to keep playing for a few seconds, well past the tool.' +
        '<tool name="wait">{"ms": 300}</tool> Done: {result}.',
      { filler: { text: 'One moment.', afterMs: 50 } },
    );
    expect(events.some((e) => e.type === 'sentence' && e.filler)).toBe(false);
  });

  test('the built-in calculator and clock', async () => {
    const calc = await turn('<tool name="calculate">{"expression": "(12.5 * 4) / 3 + 2^3"}</tool>It is {result}.', {
      builtin: ['calculator'],
    });
    expect(calc.text).toBe('It is 24.6666666667.');
    const clock = await turn('<tool name="current_time">{"time_zone": "Asia/Tokyo"}</tool>It is {result}.', {
      builtin: ['time'],
    });
    expect(clock.text).toMatch(/^It is \w+day, \d{1,2} \w+ \d{4} at \d{2}:\d{2}:\d{2} GMT\+9 \(Asia\/Tokyo\)\.$/);
    const bad = await turn('<tool name="current_time">{"time_zone": "Mars/Base"}</tool>It is {result}.', {
      builtin: ['time'],
    });
    expect(bad.text).toMatch(/unknown time zone "Mars\/Base"/);
  });
});
