// `npm run -w local bench:fleet`: the multi-instance local endpoint under load. The same simulated
// voice-agent callers as the container's load benchmark (container/bench), here speaking through
// the agent's own TTS transport (SageMakerBidiTransport, signed HTTP/2, with its retry of refused
// sessions) to the local SageMaker router, in front of 1 and then 2 container processes (the
// stand-in model with the GPU-like delay, admission control on, one model worker each), at 1.5x
// one instance's capacity. As the agent does, each turn opens its own TTS session. Reported per
// fleet, in one run: turns, refused turns that reached the caller (the retry budget spent), retries
// per turn, first audio from the turn's start (the open and its retries included) p50/p95,
// underruns, how the router spread the sessions, and the machine's load average.
//
// Flags: --capacity=40 (one instance's, from container/bench/load.ts) --factor=1.5 --instances=1,2
//   --turns=2 --sentences=4 --think-ms=2000 --stagger-ms=10000 --llm-ms-per-char=4 --delay-ms=60
//   --per-char-ms=0.4 --retry-budget-ms=2000 --seed=1
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { startServerProcess, type ServerProcess } from '@kokoro-speech/container/process';
import { SageMakerBidiTransport, TtsTransportError } from '@kokoro-speech/runtime';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOCAL_CREDENTIALS } from '@kokoro-speech/sagemaker/router';
import { numericFlags, planOptionsFrom, planSessions, PLAN_FLAGS } from '../../container/bench/plans.ts';
import type { SessionPlan } from '../../container/bench/session.ts';
import { loadAverage, percentile } from '../../container/bench/stats.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';

const { values: flags } = parseArgs({
  options: {
    ...PLAN_FLAGS,
    capacity: { type: 'string', default: '40' },
    factor: { type: 'string', default: '1.5' },
    instances: { type: 'string', default: '1,2' },
    'retry-budget-ms': { type: 'string', default: '2000' },
  },
});
const num = numericFlags(flags);

const BYTES_PER_MS = (24000 * 2) / 1000;

interface CallerResult {
  turns: number;
  refusedTurns: number;
  failedTurns: string[];
  retries: number[];
  firstAudioMs: number[];
  underruns: number;
  utterances: number;
}

/** One simulated caller: each turn opens a TTS session (retrying refusals), speaks, plays, thinks. */
async function runCaller(endpoint: string, plan: SessionPlan, retryBudgetMs: number): Promise<CallerResult> {
  const result: CallerResult = {
    turns: 0,
    refusedTurns: 0,
    failedTurns: [],
    retries: [],
    firstAudioMs: [],
    underruns: 0,
    utterances: 0,
  };
  await sleep(plan.startDelayMs);
  for (const sentences of plan.turns) {
    result.turns++;
    let retries = 0;
    const transport = new SageMakerBidiTransport({
      endpointName: 'kokoro-local',
      region: 'us-east-1',
      endpoint,
      credentials: LOCAL_CREDENTIALS,
      retry: { budgetMs: retryBudgetMs, onRetry: () => void retries++ },
    });
    const started = performance.now();
    let playoutEnd = 0;
    try {
      const session = await transport.open({ format: 'pcm_s16le', sample_rate: 24000 });
      let first = true;
      const counted = new Set<string>();
      const consumed = (async () => {
        for await (const event of session.events()) {
          if (event.type === 'audio_end') result.utterances++;
          if (event.type === 'error') result.failedTurns.push(`${event.code}: ${event.message}`);
          if (event.type !== 'audio') continue;
          const now = performance.now();
          const ms = event.data.byteLength / BYTES_PER_MS;
          if (first) {
            first = false;
            result.firstAudioMs.push(now - started);
          } else if (now > playoutEnd && !counted.has(event.id)) {
            counted.add(event.id);
            result.underruns++;
          }
          playoutEnd = Math.max(playoutEnd, now) + ms;
        }
      })();
      for (const [i, text] of sentences.entries()) {
        if (i > 0) await sleep(text.length * plan.llmMsPerChar);
        session.speak(text);
      }
      await session.end();
      await consumed;
      session.close();
    } catch (error) {
      if (error instanceof TtsTransportError && error.code === 'overloaded') result.refusedTurns++;
      else result.failedTurns.push(errorMessage(error));
    }
    result.retries.push(retries);
    await sleep(Math.max(0, playoutEnd - performance.now()) + plan.thinkMs);
  }
  return result;
}

const ROUTER_MAIN = fileURLToPath(new URL('../../sagemaker/src/router/main.ts', import.meta.url));

/** `npm run sagemaker-local` in its own process (the callers' signing must not slow the router). */
async function startRouterProcess(containers: string[]) {
  const child = spawn(
    process.execPath,
    [ROUTER_MAIN, '--port', '0', ...containers.flatMap((url) => ['--container', url])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /SageMaker runtime \(local\) at (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error('the router exited before it was ready')));
  });
  child.stdout!.resume();
  return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
}

async function runFleet(modelDir: string, instances: number, plans: SessionPlan[]) {
  const servers: ServerProcess[] = [];
  const refusedBy: Record<string, number> = {};
  const reasons: Record<string, string> = {};
  const sessionsClosed: number[] = [];
  const onLineOf = (i: number) => (entry: Record<string, unknown>) => {
    if (entry.msg === 'session closed') sessionsClosed[i] = (sessionsClosed[i] ?? 0) + 1;
    onLine(entry);
  };
  const onLine = (entry: Record<string, unknown>) => {
    if (entry.msg !== 'refused') return;
    const rule = String(entry.rule);
    refusedBy[rule] = (refusedBy[rule] ?? 0) + 1;
    reasons[rule] ??= String(entry.err);
  };
  try {
    for (let i = 0; i < instances; i++)
      servers.push(
        await startServerProcess(
          {
            KOKORO_MODEL_DIR: modelDir,
            ADMISSION: 'on',
            LOG_LEVEL: 'debug', // refusals are logged at debug
            METRICS_INTERVAL_S: '0',
            SIMULATED_DELAY_MS: String(num('delay-ms')),
            SIMULATED_DELAY_PER_CHAR_MS: String(num('per-char-ms')),
            MAX_SESSIONS: '512',
            MAX_QUEUED_TOTAL: '8192',
          },
          { onLine: onLineOf(i), bench: true },
        ),
      );
    const router = await startRouterProcess(servers.map((s) => s.url));
    try {
      const results = await Promise.all(plans.map((plan) => runCaller(router.url, plan, num('retry-budget-ms'))));
      const sum = (f: (r: CallerResult) => number) => results.reduce((n, r) => n + f(r), 0);
      const retries = results.flatMap((r) => r.retries);
      const first = results.flatMap((r) => r.firstAudioMs);
      return {
        instances,
        callers: plans.length,
        turns: sum((r) => r.turns),
        refused: sum((r) => r.refusedTurns),
        failed: results.flatMap((r) => r.failedTurns),
        retriesPerTurn: retries.reduce((a, b) => a + b, 0) / retries.length,
        maxRetries: Math.max(...retries),
        retriedTurns: retries.filter((n) => n > 0).length,
        firstP50: percentile(first, 50),
        firstP95: percentile(first, 95),
        underruns: sum((r) => r.underruns),
        utterances: sum((r) => r.utterances),
        routed: servers.map((_, i) => sessionsClosed[i] ?? 0),
        refusedBy,
        reasons,
        load: loadAverage().split(' ')[0]!,
      };
    } finally {
      await router.stop();
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

const dir = await mkdtemp(join(tmpdir(), 'kokoro-fleet-'));
try {
  await writeFixtureModel(dir);
  const callers = Math.round(num('capacity') * num('factor'));
  const plans = planSessions(callers, planOptionsFrom(num));
  console.log(
    `Fleet benchmark, ${new Date().toISOString()}: ${callers} callers (${num('factor')}x one instance's capacity of ` +
      `${num('capacity')}), each turn its own SageMaker bidi session through the local router (least outstanding requests); ` +
      `stand-in model + ${num('delay-ms')} ms + ${num('per-char-ms')} ms/char per piece, admission on, 1 model worker per instance; ` +
      `TTS retry budget ${num('retry-budget-ms')} ms; load average ${loadAverage()} on ${availableParallelism()} cores`,
  );
  console.log(
    'inst  turns refused-to-caller retries/turn (max, turns retried)  p50(ms)  p95(ms)  underruns sessions  other-errors  load',
  );
  for (const n of flags.instances.split(',').map(Number)) {
    const r = await runFleet(dir, n, plans);
    console.log(
      [
        String(r.instances).padEnd(4),
        String(r.turns).padStart(6),
        `${r.refused} (${((100 * r.refused) / r.turns).toFixed(0)}%)`.padStart(18),
        `${r.retriesPerTurn.toFixed(2)} (${r.maxRetries}, ${r.retriedTurns})`.padStart(35),
        r.firstP50.toFixed(0).padStart(8),
        r.firstP95.toFixed(0).padStart(8),
        `${r.underruns}/${r.utterances}`.padStart(10),
        r.routed.join('+').padStart(7),
        String(r.failed.length).padStart(13),
        r.load.padStart(5),
      ].join(' '),
    );
    for (const failure of new Set(r.failed)) console.log(`    error: ${failure}`);
    console.log(`    refusals at the instances by rule: ${JSON.stringify(r.refusedBy)}`);
    for (const [rule, reason] of Object.entries(r.reasons)) console.log(`    ${rule}: ${reason}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
