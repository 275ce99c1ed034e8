// The agent under faults, on loopback, in one run (the table in runtime/README.md): callers that
// stop reading (SSE, WebSocket, eight of them against one slot), a slow reader, LLMs that stall
// or send broken answers (fake servers of both wire formats), a TTS container killed mid-answer and
// started again 2 s later (direct WebSocket, SageMaker bidi through the local router), and a storm
// of callers hanging up mid-answer. Each row: what the caller sees, how long until then, the
// agent process's live heap (after a GC: before, the highest of a sample a second while the fault
// lasted, after), its RSS before and after, and its open file descriptors before and after. Defaults throughout (CALLER_STALL_SECONDS 30, LLM timeouts 20 s
// and 15 s, TTS_RECONNECT_BUDGET_MS 5000) except where a row says otherwise. The container runs
// in its own process on the stand-in model; the agent, the fake LLMs and the callers share this one.
// Usage: npm run -w runtime faults [-- --only NAME]
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { EchoProvider } from '../src/llm/echo.ts';
import { OpenAIProvider } from '../src/llm/openai.ts';
import type { LlmProvider } from '../src/llm/types.ts';
import { SageMakerBidiTransport } from '../src/tts/sagemaker-bidi-transport.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import type { TtsTransport } from '../src/tts/types.ts';
import { startAgentServer, type AgentServer, type AgentServerOptions } from '../src/server/app.ts';
import { ContainerProcess } from '../src/testing/container-process.ts';
import { startFakeOpenAI, type FakeFault } from '../src/testing/fake-llm-servers.ts';
import { startFakeLlm } from '../src/testing/fake-llm-provider.ts';
import { slowSseCaller } from '../src/testing/slow-caller.ts';
import { sentencesOf, textOf } from '../src/testing/harness.ts';
import { sseTurn } from '../src/testing/turn-clients.ts';
import { faultRows, s1 } from './fault-rows.ts';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const { scenario, printRows } = faultRows(values.only);
const sentence = (i: number) => `Sentence ${i} of an answer far longer than any buffer the agent keeps for a caller. `;
/** ~73,000 characters: over an hour of speech at Kokoro's pace. */
const LONG = Array.from({ length: 900 }, (_, i) => sentence(i)).join('');
const SHORT = Array.from({ length: 24 }, (_, i) => sentence(i)).join('');
const MEDIUM = Array.from({ length: 30 }, (_, i) => `This is sentence ${i + 1} of the answer, said once.`).join(' ');

const container = await ContainerProcess.start();
const router = await startLocalSageMakerRouter({ containerUrl: container.url });
const direct = () => new WebSocketTransport({ url: container.wsUrl });
const bidi = () =>
  new SageMakerBidiTransport({
    endpointName: 'kokoro-local',
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
  });
const fakeOpenAI = await startFakeOpenAI({
  chunkDelayMs: 0,
  chunkChars: 64,
  reply: (r) => ({ text: { long: LONG, short: SHORT }[r.lastUserText] ?? r.lastUserText }),
});
const openai = () => new OpenAIProvider({ baseURL: `${fakeOpenAI.url}/v1`, model: 'm' });
const echo = () => new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 });

async function agent(options: Partial<AgentServerOptions> & { llm: LlmProvider; tts?: TtsTransport }) {
  return startAgentServer({ tts: direct(), ...options });
}
async function healthy(server: AgentServer, withinMs = 120_000): Promise<void> {
  for (const end = performance.now() + withinMs; performance.now() < end; await sleep(50)) {
    const ping = (await (await fetch(`${server.url}/ping`)).json()) as { status: string };
    if (ping.status === 'Healthy') return;
  }
  throw new Error('the agent did not go back to Healthy');
}

// ---- callers that stop reading ----

await scenario('SSE caller stops reading (73k-char answer)', async () => {
  const server = await agent({ llm: openai() });
  try {
    const t0 = performance.now();
    const caller = await slowSseCaller(server.url, { prompt: 'long' }, { bytesPerSecond: 0 });
    await healthy(server);
    const timeMs = performance.now() - t0;
    caller.setRate(1e9);
    const { complete } = await caller.closed;
    return { outcome: `dropped${complete ? ' (but complete?)' : ''}: connection closed, no done`, timeMs };
  } finally {
    await server.close();
  }
});

await scenario('WebSocket caller stops reading (73k-char answer)', async () => {
  const server = await agent({ llm: openai() });
  try {
    const t0 = performance.now();
    const ws = new WebSocket(server.wsUrl);
    await new Promise((resolve) => ws.once('open', resolve));
    let done = false;
    ws.on('message', (data, binary) => {
      if (!binary && data.toString().includes('"done"')) done = true;
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ type: 'prompt', prompt: 'long' }));
    await sleep(300);
    ws.pause();
    await healthy(server);
    const timeMs = performance.now() - t0;
    ws.resume();
    const code = await closed;
    return { outcome: `dropped: socket terminated (${code})${done ? ', done?' : ', no done'}`, timeMs };
  } finally {
    await server.close();
  }
});

await scenario('8 SSE callers stop reading, MAX_CONCURRENT_TURNS=1', async () => {
  const server = await agent({ llm: openai(), limits: { maxConcurrentTurns: 1 } });
  try {
    const t0 = performance.now();
    const callers = await Promise.all(
      Array.from({ length: 8 }, () => slowSseCaller(server.url, { prompt: 'long' }, { bytesPerSecond: 0 })),
    );
    const admitted = callers.filter((c) => c.status === 200).length;
    const busy = callers.filter((c) => c.status === 503).length;
    await healthy(server);
    const timeMs = performance.now() - t0;
    for (const c of callers) c.close();
    return { outcome: `${admitted} admitted, ${busy} refused busy (503); the admitted one dropped`, timeMs };
  } finally {
    await server.close();
  }
});

await scenario('SSE caller reads at 200 KB/s (24 sentences, ~5.5 MB)', async () => {
  const server = await agent({ llm: openai() });
  try {
    const t0 = performance.now();
    const caller = await slowSseCaller(server.url, { prompt: 'short' }, { bytesPerSecond: 200_000 });
    const { complete } = await caller.closed;
    const timeMs = performance.now() - t0;
    const sentences = sentencesOf(caller.events);
    const whole = complete && sentences.map((s) => s.text).join(' ') === SHORT.trim();
    const once = sentences.every((s) => Math.abs(s.bytes / 48 - s.duration_ms!) < 1);
    return {
      outcome: whole && once ? `complete: ${sentences.length} sentences, each once` : 'INCOMPLETE',
      timeMs,
    };
  } finally {
    await server.close();
  }
});

// ---- LLMs that stall or break ----

const ANSWER = 'The first sentence arrives whole. The second one too. The third is never finished by the model.';

for (const wire of ['openai', 'bedrock'] as const) {
  const faults: [string, FakeFault][] = [
    ['sends nothing', { kind: 'silent' }],
    ['stalls after 6 chunks', { kind: 'stall', afterChunks: 6 }],
    ['ends with no finish reason', { kind: 'truncate', afterChunks: 6 }],
    ['sends garbage after 6 chunks', { kind: 'garbage', afterChunks: 6 }],
    ['answers 200 with an HTML page', { kind: 'html' }],
  ];
  for (const [name, fault] of faults) {
    await scenario(`LLM (${wire} wire) ${name}`, async () => {
      const { fake, provider } = await startFakeLlm(wire, {
        reply: () => ({ text: ANSWER }),
        chunkChars: 8,
        chunkDelayMs: 5,
        fault,
      });
      const server = await agent({ llm: provider });
      try {
        const t0 = performance.now();
        let errorAt = NaN;
        const { events } = await sseTurn(
          server.url,
          { prompt: 'Tell me three things.' },
          {
            onEvent: (e) => {
              if (e.type === 'error') errorAt = performance.now() - t0;
            },
          },
        );
        const error = events.find((e) => e.type === 'error') as { code: string; message: string } | undefined;
        const spoken = sentencesOf(events).length;
        const written = textOf(events).length;
        return {
          outcome: error
            ? `${error.code} after ${written} chars written, ${spoken} sentence${spoken === 1 ? '' : 's'} spoken: "${error.message.slice(0, 70)}..."`
            : 'NO ERROR',
          timeMs: errorAt,
        };
      } finally {
        await server.close();
        await fake.close();
      }
    });
  }
}

// ---- the TTS container restarted mid-answer ----

for (const [name, transport] of [
  ['direct WebSocket', direct],
  ['SageMaker bidi via the router', bidi],
] as const) {
  await scenario(`TTS container killed mid-answer, back 2 s later (${name})`, async () => {
    const server = await agent({ llm: echo(), tts: transport() });
    try {
      let restart: Promise<void> | undefined;
      let downMs = 0;
      const t0 = performance.now();
      const { events } = await sseTurn(
        server.url,
        { prompt: MEDIUM },
        {
          onEvent: (e) => {
            if (restart || e.type !== 'audio') return;
            restart = (async () => {
              const killed = performance.now();
              await container.kill('SIGKILL');
              await sleep(2000);
              await container.restart();
              downMs = performance.now() - killed;
            })();
          },
        },
      );
      const timeMs = performance.now() - t0;
      await restart;
      const error = events.find((e) => e.type === 'error') as { code: string } | undefined;
      const sentences = sentencesOf(events);
      const whole = sentences.map((s) => s.text).join(' ') === MEDIUM;
      const once = sentences.every((s) => Math.abs(s.bytes / 48 - s.duration_ms!) < 1);
      return {
        outcome: error
          ? `${error.code} (container down ${s1(downMs)})`
          : whole && once
            ? `done, no error: ${sentences.length} sentences each heard once (container down ${s1(downMs)})`
            : 'LOST OR REPEATED AUDIO',
        timeMs,
      };
    } finally {
      await server.close();
    }
  });
}

// ---- a storm of callers hanging up ----

await scenario('300 SSE callers hang up mid-answer (15 at a time)', async () => {
  const server = await agent({ llm: echo() });
  try {
    const t0 = performance.now();
    let hungUp = 0;
    for (let batch = 0; batch < 300 / 15; batch++) {
      await Promise.all(
        Array.from({ length: 15 }, async () => {
          const controller = new AbortController();
          await sseTurn(
            server.url,
            { prompt: SHORT },
            {
              controller,
              onEvent: (e) => {
                if (e.type === 'audio' && !controller.signal.aborted) {
                  controller.abort();
                  hungUp++;
                }
              },
            },
          );
        }),
      );
    }
    await healthy(server);
    return { outcome: `${hungUp} hung up; all their turns freed (Healthy)`, timeMs: performance.now() - t0 };
  } finally {
    await server.close();
  }
});

await fakeOpenAI.close();
await router.close();
await container.close();

printRows();
