// Time to first audio on loopback for one answer under four policies, in one run:
//   batch (whole answer first), reference (regex split, each sentence waits for the previous
//   audio), ours without the early first piece, and ours; plus ours end to end (SSE caller ->
//   agent server -> SageMaker bidi client -> local router -> container).
// Echo LLM at 400 ms to first token and 40 tokens/s; the container runs the stand-in model with a
// GPU-like delay per piece (60 ms + 0.4 ms per character), in its own process. Floor = the moment the first piece was
// complete in the token stream + its synthesis time; overhead = first audio - floor.
// Usage: npm run -w runtime bench [-- --runs 7]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { EchoProvider } from '../src/llm/echo.ts';
import { runTurn, type TurnContext, type TurnResult } from '../src/pipeline/turn.ts';
import type { PolicyPlanner, TurnPolicy } from '../src/pipeline/policies.ts';
import { referencePolicy, streamNoEarlyFirstPolicy } from '../src/testing/bench-policies.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import { SageMakerBidiTransport } from '../src/tts/sagemaker-bidi-transport.ts';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startAgentServer } from '../src/server/app.ts';
import { pino } from 'pino';
import { ContainerProcess } from '../src/testing/container-process.ts';
import { ANSWER } from './first-audio-answer.ts';
import { sseTurn } from '../src/testing/turn-clients.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new TypeError(`--runs must be a positive integer, got ${values.runs}`);
const FIRST_TOKEN_MS = 400;
const TOKENS_PER_SECOND = 40;
const DELAY_MS = 60;
const DELAY_PER_CHAR_MS = 0.4;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const fmt = (x: number) => x.toFixed(1).padStart(8);

interface Sample {
  firstAudio: number;
  floor: number;
  firstPieceReady: number;
  firstPiece: string;
  /** Overhead parts (in-process only): piece ready -> speak(); the container's queue (phonemisation);
   *  the rest (network, framing, delivery). */
  parts?: { send: number; queue: number; rest: number };
}

function sampleOf(result: TurnResult): Sample {
  const first = result.sentences[0];
  if (!first || first.firstAudioMs === undefined || first.synthesisMs === undefined) {
    throw new Error(`turn ${result.outcome} without first audio: ${JSON.stringify(result.error)}`);
  }
  const send = first.sentMs! - first.readyMs;
  const queue = first.queueMs ?? 0;
  const rest = first.firstAudioMs - first.readyMs - first.synthesisMs - send - queue;
  return {
    firstAudio: first.firstAudioMs,
    floor: first.readyMs + first.synthesisMs,
    firstPieceReady: first.readyMs,
    firstPiece: first.text,
    parts: { send, queue, rest },
  };
}

const container = await ContainerProcess.start(
  { SIMULATED_DELAY_MS: String(DELAY_MS), SIMULATED_DELAY_PER_CHAR_MS: String(DELAY_PER_CHAR_MS) },
  { bench: true },
);
const router = await startLocalSageMakerRouter({ containerUrl: container.url });
const llm = new EchoProvider({ firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: TOKENS_PER_SECOND });
const context: TurnContext = {
  llm,
  tts: new WebSocketTransport({ url: container.wsUrl }),
  defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
};
// The agent's per-turn log line is written when a turn has finished: its arrival after the caller
// disconnected is the disconnect -> cancelled latency.
let turnLogged: (() => void) | null = null;
const agent = await startAgentServer({
  llm,
  tts: new SageMakerBidiTransport({
    endpointName: 'kokoro-local',
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
  }),
  logger: pino({ level: 'info' }, { write: (line: string) => void (line.includes('"msg":"turn"') && turnLogged?.()) }),
});
const disconnectMs: number[] = [];

/** One turn in-process; stops it at first audio (except batch, which needs the whole answer anyway). */
const cancelMs: number[] = [];
async function inProcess(policy: TurnPolicy | PolicyPlanner): Promise<Sample> {
  const controller = new AbortController();
  let abortedAt = 0;
  const result = await runTurn(context, {
    request: { prompt: ANSWER },
    policy,
    signal: controller.signal,
    emit: (e) => {
      if (e.type === 'sentence_end' && !controller.signal.aborted) {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  });
  // Cancel latency: abort -> LLM stream stopped, TTS session closed, turn finished.
  cancelMs.push(performance.now() - abortedAt);
  return sampleOf(result);
}

/** One turn over SSE through the agent server and the SageMaker bidi client; the caller's clock. */
async function endToEnd(): Promise<Sample> {
  const controller = new AbortController();
  const t0 = performance.now();
  let firstAudio = -1;
  let ready = -1;
  let piece = '';
  let floor = -1;
  let abortedAt = 0;
  const logged = new Promise<number>((resolve) => (turnLogged = () => resolve(performance.now())));
  await sseTurn(
    agent.url,
    { prompt: ANSWER },
    {
      controller,
      onEvent: (e) => {
        if (e.type === 'sentence' && ready < 0) ((ready = e.text_ms ?? -1), (piece = e.text));
        if (e.type === 'audio' && firstAudio < 0) firstAudio = performance.now() - t0;
        if (e.type === 'sentence_end' && floor < 0) {
          floor = ready + e.synthesis_ms;
          abortedAt = performance.now();
          controller.abort();
        }
      },
    },
  );
  disconnectMs.push((await logged) - abortedAt);
  return { firstAudio, floor, firstPieceReady: ready, firstPiece: piece };
}

const rows: [string, TurnPolicy | PolicyPlanner | 'e2e'][] = [
  ['batch (whole answer first)', 'batch'],
  ['reference (regex, waits for audio)', referencePolicy],
  ['ours without early first piece', streamNoEarlyFirstPolicy],
  ['ours', 'stream'],
  ['ours end to end (SSE, SageMaker bidi)', 'e2e'],
];
const samples = new Map<string, Sample[]>(rows.map(([name]) => [name, []]));
await inProcess('stream'); // warm-up: connections, JIT, the model's first run
await endToEnd();
cancelMs.length = disconnectMs.length = 0;
for (let run = 0; run < RUNS; run++) {
  for (const [name, policy] of rows)
    samples.get(name)!.push(policy === 'e2e' ? await endToEnd() : await inProcess(policy));
  process.stderr.write(`run ${run + 1}/${RUNS} done\n`);
}

const words = ANSWER.split(/\s+/).length;
console.log(`\nfirst audio on loopback, ${RUNS} runs per policy, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `answer: ${ANSWER.length} characters, ${words} words, 4 paragraphs; echo LLM ${FIRST_TOKEN_MS} ms to first token, ${TOKENS_PER_SECOND} tokens/s`,
);
console.log(
  `container (own process): stand-in model + ${DELAY_MS} ms + ${DELAY_PER_CHAR_MS} ms/char per piece (GPU-like); load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} CPUs\n`,
);
console.log(`${'policy'.padEnd(40)}first audio p50      p95  batch/p50  piece ready   floor p50  overhead p50  p95`);
const batchP50 = percentile(
  samples.get(rows[0]![0])!.map((s) => s.firstAudio),
  50,
);
for (const [name] of rows) {
  const s = samples.get(name)!;
  const first = s.map((x) => x.firstAudio);
  const overhead = s.map((x) => x.firstAudio - x.floor);
  const p50 = percentile(first, 50);
  console.log(
    `${name.padEnd(40)}${fmt(p50)} ${fmt(percentile(first, 95))} ${(batchP50 / p50).toFixed(1).padStart(9)}x ${fmt(
      percentile(
        s.map((x) => x.firstPieceReady),
        50,
      ),
    )}    ${fmt(
      percentile(
        s.map((x) => x.floor),
        50,
      ),
    )}      ${fmt(percentile(overhead, 50))} ${fmt(percentile(overhead, 95))}`,
  );
}
console.log(
  '\noverhead parts, p50 (ms): piece ready -> speak() | container queue incl. phonemisation | network + delivery',
);
for (const [name, policy] of rows) {
  if (policy === 'e2e') continue;
  const parts = samples.get(name)!.map((x) => x.parts!);
  console.log(
    `  ${name.padEnd(40)}${fmt(
      percentile(
        parts.map((p) => p.send),
        50,
      ),
    )} ${fmt(
      percentile(
        parts.map((p) => p.queue),
        50,
      ),
    )} ${fmt(
      percentile(
        parts.map((p) => p.rest),
        50,
      ),
    )}`,
  );
}
console.log(
  `\ncancel (abort -> LLM stopped, TTS session closed, turn done): p50 ${percentile(cancelMs, 50).toFixed(1)} ms, p95 ${percentile(cancelMs, 95).toFixed(1)} ms, max ${Math.max(...cancelMs).toFixed(1)} ms over ${cancelMs.length} turns`,
);
console.log(
  `SSE caller disconnect -> agent turn cancelled and finished: p50 ${percentile(disconnectMs, 50).toFixed(1)} ms, p95 ${percentile(disconnectMs, 95).toFixed(1)} ms, max ${Math.max(...disconnectMs).toFixed(1)} ms over ${disconnectMs.length} turns`,
);
console.log('\nfirst piece spoken:');
for (const [name] of rows)
  console.log(`  ${name.padEnd(40)}${JSON.stringify(samples.get(name)![0]!.firstPiece.slice(0, 90))}`);

await agent.close();
await router.close();
await container.close();
