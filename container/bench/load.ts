// `npm run -w container bench`: load benchmark of the Kokoro server on loopback. For each number of
// concurrent WebSocket sessions and each scheduler, a fresh server runs in a child process on the
// stand-in model with a simulated per-piece GPU delay; simulated voice-agent sessions speak answers
// and report first-audio latency, underruns, throughput and server memory. Then it searches the
// capacity: the most sessions per model worker with first-audio p95 < 500 ms and no underruns
// (admission control off, so that every session is served). Then, past that capacity (1.5x and
// 2x by default), the same load with admission control off and on: the admitted sessions'
// first-audio p95 and underruns, the share refused, and how long a refusal takes. Every row
// carries the machine's 1-minute load average (these machines are shared).
//
// Flags (all optional): --sessions=1,8,32,64 --policies=deadline,fifo --turns=2 --sentences=4
//   --think-ms=2000 --stagger-ms=10000 --llm-ms-per-char=4 --delay-ms=60 --per-char-ms=0.4
//   --capacity-probes=4 --seed=1 --admission-at=1.5,2 (empty: skip) --capacity=N (skip the search)
//   --max-utilization=0.7 (ADMISSION_MAX_UTILIZATION of the admission runs)
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFixtureModel } from '../src/fixture/index.ts';
import { startServerProcess } from './server-process.ts';
import { numericFlags, planOptionsFrom, planSessions, PLAN_FLAGS } from './plans.ts';
import { runSession, type SessionResult } from './session.ts';
import { loadAverage, percentile } from './stats.ts';

const { values: flags } = parseArgs({
  options: {
    ...PLAN_FLAGS,
    sessions: { type: 'string', default: '1,8,32,64' },
    policies: { type: 'string', default: 'deadline,fifo' },
    'capacity-probes': { type: 'string', default: '4' },
    'admission-at': { type: 'string', default: '1.5,2' },
    'max-utilization': { type: 'string', default: '0.7' },
    capacity: { type: 'string' },
  },
});
const num = numericFlags(flags);

interface RunReport {
  policy: string;
  admission: 'on' | 'off';
  sessions: number;
  /** Sessions refused at connect (admission control), and by which rule. */
  refused: number;
  refusedBy: Record<string, number>;
  /** One refusal message of each rule (what the server said). */
  sampleReasons: Record<string, string>;
  refusalP95: number;
  firstP50: number;
  firstP95: number;
  underruns: number;
  utterances: number;
  audioSPerS: number;
  runsPerS: number;
  peakRssMiB: number | null;
  errors: number;
}

async function runLoad(
  modelDir: string,
  policy: string,
  sessions: number,
  admission: 'on' | 'off' = 'off',
): Promise<RunReport> {
  const refusedBy: Record<string, number> = {};
  const sampleReasons: Record<string, string> = {};
  const onLine = (entry: Record<string, unknown>) => {
    if (entry.msg !== 'refused') return;
    const rule = String(entry.rule);
    refusedBy[rule] = (refusedBy[rule] ?? 0) + 1;
    sampleReasons[rule] ??= String(entry.err);
  };
  const server = await startServerProcess(
    {
      KOKORO_MODEL_DIR: modelDir,
      SCHEDULER: policy,
      ADMISSION: admission,
      ADMISSION_MAX_UTILIZATION: flags['max-utilization'],
      METRICS_INTERVAL_S: '0',
      LOG_LEVEL: admission === 'on' ? 'debug' : 'info', // refusals are logged at debug
      SIMULATED_DELAY_MS: String(num('delay-ms')),
      SIMULATED_DELAY_PER_CHAR_MS: String(num('per-char-ms')),
      MAX_SESSIONS: String(Math.max(256, sessions)),
      MAX_QUEUED_TOTAL: String(Math.max(1024, sessions * 64)),
    },
    { onLine, bench: true },
  );
  try {
    const plans = planSessions(sessions, planOptionsFrom(num));
    const started = performance.now();
    const results: SessionResult[] = await Promise.all(
      plans.map((plan) => runSession(`ws://127.0.0.1:${server.port}/invocations-bidirectional-stream`, plan)),
    );
    const wallS = (performance.now() - started) / 1000;
    const first = results.flatMap((r) => r.firstAudioMs);
    const utterances = results.reduce((n, r) => n + r.utterances, 0);
    const refusals = results.flatMap((r) => (r.refusedMs === undefined ? [] : [r.refusedMs]));
    return {
      policy,
      admission,
      sessions,
      refused: refusals.length,
      refusedBy,
      sampleReasons,
      refusalP95: percentile(refusals, 95),
      firstP50: percentile(first, 50),
      firstP95: percentile(first, 95),
      underruns: results.reduce((n, r) => n + r.underruns, 0),
      utterances,
      audioSPerS: results.reduce((n, r) => n + r.audioMs, 0) / 1000 / wallS,
      runsPerS: utterances / wallS,
      peakRssMiB: await server.peakRssMiB(),
      errors: results.reduce((n, r) => n + r.errors.length, 0),
    };
  } finally {
    await server.stop();
  }
}

const meetsGoal = (r: RunReport) => r.firstP95 < 500 && r.underruns === 0 && r.errors === 0;

function printRow(r: RunReport): void {
  console.log(
    [
      r.policy.padEnd(8),
      String(r.sessions).padStart(4),
      r.firstP50.toFixed(0).padStart(8),
      r.firstP95.toFixed(0).padStart(8),
      `${r.underruns}/${r.utterances}`.padStart(11),
      r.audioSPerS.toFixed(1).padStart(9),
      r.runsPerS.toFixed(1).padStart(8),
      String(r.peakRssMiB ?? '?').padStart(8),
      String(r.errors).padStart(6),
      loadAverage().split(' ')[0]!.padStart(5),
    ].join(' '),
  );
}

function printAdmissionRow(factor: number, r: RunReport): void {
  console.log(
    [
      `${factor}x`.padEnd(5),
      r.admission.padEnd(4),
      String(r.sessions).padStart(4),
      String(r.sessions - r.refused).padStart(8),
      `${((100 * r.refused) / r.sessions).toFixed(0)}%`.padStart(7),
      r.firstP50.toFixed(0).padStart(8),
      r.firstP95.toFixed(0).padStart(8),
      `${r.underruns}/${r.utterances}`.padStart(11),
      (r.refused ? r.refusalP95.toFixed(1) : '-').padStart(11),
      String(r.errors).padStart(6),
      loadAverage().split(' ')[0]!.padStart(5),
    ].join(' '),
  );
}

const dir = await mkdtemp(join(tmpdir(), 'kokoro-bench-'));
try {
  await writeFixtureModel(dir);
  const sessionCounts = flags.sessions.split(',').map(Number);
  const policies = flags.policies.split(',');
  console.log(
    `Kokoro server load benchmark, ${new Date().toISOString()}: stand-in model + simulated GPU delay ` +
      `${num('delay-ms')} ms + ${num('per-char-ms')} ms/char per piece, 1 model worker; ` +
      `${num('turns')} turns x ${num('sentences')} sentences per session, LLM pace ${num('llm-ms-per-char')} ms/char, ` +
      `think ${num('think-ms')} ms, starts spread over ${num('stagger-ms')} ms; load average ${loadAverage()} on ${availableParallelism()} cores`,
  );
  const given = flags.capacity === undefined ? undefined : num('capacity');
  const reports: RunReport[] = [];
  if (given === undefined)
    console.log('policy   sess  p50(ms)  p95(ms)   underruns  audio/s  utt/s  rss(MiB) errors  load');
  for (const n of given === undefined ? sessionCounts : []) {
    for (const policy of policies) {
      const r = await runLoad(dir, policy, n);
      reports.push(r);
      printRow(r);
    }
    const d = reports.find((r) => r.sessions === n && r.policy === 'deadline');
    const f = reports.find((r) => r.sessions === n && r.policy === 'fifo');
    if (d && f) {
      console.log(
        `  N=${n}: first-audio p95 deadline/fifo = ${(d.firstP95 / f.firstP95).toFixed(2)}, underruns ${d.underruns} vs ${f.underruns}`,
      );
    }
  }

  // Capacity: bisect between the largest passing and smallest failing session count (deadline).
  let capacity = given ?? 0;
  if (given === undefined) {
    const deadline = reports.filter((r) => r.policy === 'deadline');
    let lo = Math.max(0, ...deadline.filter(meetsGoal).map((r) => r.sessions));
    let hi = Math.min(...deadline.filter((r) => !meetsGoal(r)).map((r) => r.sessions));
    for (
      let probe = 0;
      probe < num('capacity-probes') && Number.isFinite(hi) && hi - lo > Math.max(1, lo / 10);
      probe++
    ) {
      const mid = Math.round((lo + hi) / 2);
      const r = await runLoad(dir, 'deadline', mid);
      printRow(r);
      if (meetsGoal(r)) lo = mid;
      else hi = mid;
    }
    capacity = lo;
    console.log(
      `capacity (deadline, 1 model worker, admission off): ${lo} sessions with first-audio p95 < 500 ms and no underruns` +
        (Number.isFinite(hi) ? ` (fails at ${hi})` : ' (the largest count tried)') +
        `; load average ${loadAverage()}`,
    );
  }

  // Past capacity: admission control off vs on, the same sessions (same seed) in one run.
  const factors = flags['admission-at'] ? flags['admission-at'].split(',').map(Number) : [];
  if (factors.length > 0 && capacity > 0) {
    console.log(
      `past capacity (${capacity} sessions per model worker), deadline scheduler, admission control off vs on:`,
    );
    console.log('load  adm  sess admitted refused  p50(ms)  p95(ms)   underruns refusal-p95 errors  load');
    for (const factor of factors) {
      const n = Math.round(factor * capacity);
      const off = await runLoad(dir, 'deadline', n, 'off');
      printAdmissionRow(factor, off);
      const on = await runLoad(dir, 'deadline', n, 'on');
      printAdmissionRow(factor, on);
      console.log(
        `  ${factor}x: admitted sessions' first-audio p95 on/off = ${(on.firstP95 / off.firstP95).toFixed(2)}` +
          ` (${on.firstP95.toFixed(0)} vs ${off.firstP95.toFixed(0)} ms), underruns ${on.underruns} vs ${off.underruns},` +
          ` ${((100 * on.refused) / n).toFixed(0)}% refused in p95 ${on.refused ? on.refusalP95.toFixed(1) : '-'} ms` +
          ` (goal with admission: p95 < 500 ms, 0 underruns, refusal p95 < 50 ms: ${
            on.firstP95 < 500 && on.underruns === 0 && on.refusalP95 < 50 ? 'met' : 'NOT met'
          }); refused by rule: ${JSON.stringify(on.refusedBy)}`,
      );
      for (const [rule, reason] of Object.entries(on.sampleReasons)) console.log(`    ${rule}: ${reason}`);
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
