// Conversations on loopback, in one run (figures and ratios in runtime/README.md):
// 1. memory must not slow turns down: first audio of follow-up turns in a 10-turn conversation
//    vs its first turn (and one-shot turns), with the echo model and with an OpenAI-compatible
//    fake server (which is sent the whole history each turn);
// 2. tool turns with a 300 ms and a 2 s tool: first audio of the answer after the tool relative to
//    the tool's end, and the longest silence the caller hears, with and without the filler;
// 3. 64 concurrent sessions x 5 turns: memory per session, and no crossed answers.
// Echo LLM at 400 ms to first token and 40 tokens/s; the container in its own process on the
// stand-in model with a GPU-like delay per piece (60 ms + 0.4 ms per character); SSE callers.
// Usage: npm run -w runtime bench:conversation [-- --runs 5]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from '@strands-agents/sdk';
import { z } from 'zod';
import { pino } from 'pino';
import { EchoProvider } from '../src/llm/echo.ts';
import { OpenAIProvider } from '../src/llm/openai.ts';
import type { LlmProvider } from '../src/llm/types.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import { startAgentServer, type AgentServerOptions } from '../src/server/app.ts';
import { ContainerProcess } from '../src/testing/container-process.ts';
import { startFakeOpenAI } from '../src/testing/fake-llm-servers.ts';
import type { PipelineEvent } from '../src/pipeline/turn.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new TypeError(`--runs must be a positive integer, got ${values.runs}`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const f1 = (x: number) => x.toFixed(1);

const container = await ContainerProcess.start(
  { SIMULATED_DELAY_MS: '60', SIMULATED_DELAY_PER_CHAR_MS: '0.4' },
  { bench: true },
);
const tts = () => new WebSocketTransport({ url: container.wsUrl });
const echo = () => new EchoProvider({ firstTokenMs: 400, tokensPerSecond: 40 });
const silent = pino({ level: 'silent' });

/** One SSE turn: its events with client arrival times (ms since the request). */
async function turn(url: string, body: object): Promise<{ at: number; e: PipelineEvent }[]> {
  const { EventSourceParserStream } = await import('eventsource-parser/stream');
  const t0 = performance.now();
  const res = await fetch(`${url}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const out: { at: number; e: PipelineEvent }[] = [];
  const stream = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const m of stream) {
    const data = JSON.parse(m.data);
    out.push({ at: performance.now() - t0, e: { type: m.event, ...data } as PipelineEvent });
  }
  return out;
}
const firstAudioAt = (events: { at: number; e: PipelineEvent }[]) =>
  events.find((x) => x.e.type === 'audio')?.at ?? NaN;
const answerOf = (events: { at: number; e: PipelineEvent }[]) =>
  events
    .filter((x) => x.e.type === 'text')
    .map((x) => (x.e as { delta: string }).delta)
    .join('');
let counter = 0;
const sessionId = () => `bench-conversation-${process.pid}-${++counter}-0123456789abcdef`;

console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${RUNS} runs per figure; ${new Date().toISOString().slice(0, 10)}`,
);

// 1. Memory vs first audio.
async function memoryFigures(label: string, llm: () => LlmProvider) {
  const server = await startAgentServer({ llm: llm(), tts: tts(), logger: silent });
  const prompt = (i: number) => `Turn ${i + 1} of this talk. Here is a short question for you, please answer it.`;
  const byTurn: number[][] = Array.from({ length: 10 }, () => []);
  const oneShot: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const s = sessionId();
    for (let i = 0; i < 10; i++)
      byTurn[i]!.push(firstAudioAt(await turn(server.url, { prompt: prompt(i), session_id: s })));
    oneShot.push(firstAudioAt(await turn(server.url, { prompt: prompt(9) })));
  }
  await server.close();
  const first = median(byTurn[0]!);
  const followUps = median(byTurn.slice(1).flat());
  const tenth = median(byTurn[9]!);
  console.log(
    `\n1. ${label}: first audio at the caller (p50 ms): turn 1 ${f1(first)}, turns 2-10 ${f1(followUps)} ` +
      `(x${(followUps / first).toFixed(3)}), turn 10 ${f1(tenth)} (x${(tenth / first).toFixed(3)}), one-shot ${f1(median(oneShot))}`,
  );
  console.log(`   per turn: ${byTurn.map((xs) => f1(median(xs))).join(', ')}`);
}
await memoryFigures('echo model', echo);
const fake = await startFakeOpenAI({ chunkDelayMs: 25 });
await memoryFigures('OpenAI-compatible fake server (whole history sent each turn, 25 ms per chunk)', () => {
  return new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' });
});
const historyBytes = fake.requests.map((r) => JSON.stringify(r.body).length);
console.log(`   request bodies: ${Math.min(...historyBytes)} to ${Math.max(...historyBytes)} bytes`);
await fake.close();

// 2. Tool turns.
const wait = tool({
  name: 'wait',
  description: 'Waits.',
  inputSchema: z.object({ ms: z.number() }),
  callback: async ({ ms }) => (await sleep(ms), 'done'),
});

/** Playback as a caller hears it: each sentence starts when its audio arrived and the one before ended. */
function longestSilence(events: { at: number; e: PipelineEvent }[]): number {
  const sentences: { arrive: number; duration: number }[] = [];
  const open = new Map<string, { arrive: number; duration: number }>();
  for (const { at, e } of events) {
    if (e.type === 'audio' && !open.has(e.id)) {
      const s = { arrive: at, duration: 0 };
      open.set(e.id, s);
      sentences.push(s);
    }
    if (e.type === 'sentence_end') open.get(e.id)!.duration = e.duration_ms;
  }
  let end = sentences[0]?.arrive ?? 0;
  let longest = 0;
  for (const s of sentences) {
    const start = Math.max(s.arrive, end);
    longest = Math.max(longest, start - end);
    end = start + s.duration;
  }
  return longest;
}

for (const ms of [300, 2000]) {
  for (const filler of [false, true]) {
    const options: Partial<AgentServerOptions> = {
      tools: { tools: [wait], ...(filler ? { filler: { text: 'One moment, please.', afterMs: 1500 } } : {}) },
    };
    const server = await startAgentServer({ llm: echo(), tts: tts(), logger: silent, ...options });
    const afterTool: number[] = [];
    const modelPart: number[] = [];
    const silences: number[] = [];
    let fillers = 0;
    for (let r = 0; r < RUNS; r++) {
      const events = await turn(server.url, {
        prompt: `Let me check that.<tool name="wait">{"ms": ${ms}}</tool> It is done, and here is the answer you wanted.`,
        session_id: sessionId(),
      });
      const ended = events.find((x) => x.e.type === 'tool' && x.e.state === 'ended')!;
      const endedMs = (ended.e as { ended_ms: number }).ended_ms;
      // The first sentence of the answer after the tool: complete in the text after the tool ended.
      const after = events.find(
        (x) =>
          x.e.type === 'sentence' &&
          !(x.e as { filler?: boolean }).filler &&
          (x.e as { text_ms: number }).text_ms >= endedMs,
      )!;
      const firstChunk = events.find((x) => x.e.type === 'audio' && x.e.id === (after.e as { id: string }).id)!;
      afterTool.push(firstChunk.at - ended.at);
      // Of which the model's own time (agent clock): from the tool's end to its next piece being complete.
      modelPart.push((after.e as { text_ms: number }).text_ms - endedMs);
      silences.push(longestSilence(events));
      fillers += events.filter((x) => x.e.type === 'sentence' && (x.e as { filler?: boolean }).filler).length;
    }
    await server.close();
    console.log(
      `\n2. ${ms} ms tool, filler ${filler ? 'on (after 1500 ms)' : 'off'}: first audio after the tool ended p50 ${f1(median(afterTool))} ms ` +
        `(min ${f1(Math.min(...afterTool))}, max ${f1(Math.max(...afterTool))}; the model's next piece took ${f1(median(modelPart))} of it, ` +
        `the rest is synthesis and delivery); longest silence heard p50 ${f1(median(silences))} ms; ` +
        `fillers spoken ${fillers}/${RUNS}`,
    );
  }
}

// 3. 64 concurrent sessions x 5 turns.
{
  const SESSIONS = 64;
  const server = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 400, tokensPerSecond: 40 }),
    tts: tts(),
    logger: silent,
    limits: { maxConcurrentTurns: SESSIONS },
    sessions: { maxSessions: SESSIONS * 2 },
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap = async () => {
    for (let i = 0; i < 3; i++) {
      gc?.();
      await sleep(50);
    }
    return process.memoryUsage();
  };
  // Warm up the code paths.
  await turn(server.url, { prompt: 'Warm up. Once.', session_id: sessionId() });
  const ids = Array.from({ length: SESSIONS }, () => sessionId());
  const t0 = performance.now();
  const results = await Promise.all(
    ids.map(async (id, n) => {
      for (let i = 0; i < 4; i++)
        await turn(server.url, { prompt: `Session ${n}, turn ${i + 1}: my number is ${n * 100 + i}.`, session_id: id });
      return answerOf(await turn(server.url, { prompt: 'What did I say before?', session_id: id }));
    }),
  );
  const wall = performance.now() - t0;
  const crossed = results.filter((a, n) => a !== `You said: Session ${n}, turn 4: my number is ${n * 100 + 3}.`).length;
  const live = server.sessions.size;
  // What the sessions hold: the heap with them, then without them (all evicted), both after GC.
  const held = await heap();
  server.sessions.sweep(Date.now() + 10 * 86_400_000);
  const freed = await heap();
  await server.close();
  console.log(
    `\n3. ${SESSIONS} sessions x 5 turns at once (${SESSIONS * 5} turns in ${f1(wall / 1000)} s): ${crossed} crossed or wrong answers; ` +
      `${live} live sessions holding ${f1((held.heapUsed - freed.heapUsed) / 1024 / live)} KiB of heap each ` +
      `(${f1((held.heapUsed - freed.heapUsed) / 1024 / 1024)} MiB in all; heap with them ${f1(held.heapUsed / 1024 / 1024)} MiB, ` +
      `RSS ${f1(held.rss / 1024 / 1024)} MiB)${gc ? '' : ' (no --expose-gc: figures include garbage)'}`,
  );
}

await container.close();
