// What tracing costs a turn: the same turns with tracing off (the default: no provider, the
// pipeline's NoTurnTrace) and on (a provider exporting over OTLP/HTTP to a receiver in this
// process: the turn, sentence, TTS connect spans and Strands' agent, cycle and model spans, their
// batching, JSON encoding and export, all counted; the receiver runs in a process of its own). The turns run the real pipeline and the real
// Strands agent loop on the echo model (no waits), against an in-memory TTS session that answers
// each sentence at once, so what is measured is the agent's own work per turn, not the network.
// Prints per mode: turns, median wall ms per turn, CPU ms per turn (process.cpuUsage over the block,
// the export included), spans exported; then the differences and the ratio.
// Run: npm run -w runtime bench:tracing   (ROUNDS=n blocks of each mode, default 5; TURNS=turns per block, default 60)
import { startTracing } from '@kokoro-speech/protocol/observability';
import { spawn } from 'node:child_process';
import { EchoProvider } from '../src/llm/echo.ts';
import { Observability } from '../src/observability/index.ts';
import { runTurn, type TurnContext } from '../src/pipeline/turn.ts';
import { EventQueue } from '../src/tts/types.ts';
import type { TtsEvent, TtsSession, TtsTransport } from '../src/tts/types.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TURNS = Number(process.env.TURNS ?? 60);
const PROMPT =
  'The museum opens at nine in the morning. It closes at six on weekdays. On Saturdays it stays open until eight. ' +
  'Tickets cost a little less online. Children under twelve go in for free. The east wing holds the modern collection.';
const CHUNK = new Uint8Array(4800); // 100 ms of 24 kHz PCM per sentence

/** A TTS session that answers each sentence at once: audio_start, one chunk, audio_end. */
const instantTts: TtsTransport = {
  name: 'websocket',
  open: async (_settings, _signal, observer) => {
    observer?.streamTry('open')({ result: 'ready' });
    const events = new EventQueue<TtsEvent>();
    let index = 0;
    const session: TtsSession = {
      ready: Promise.resolve({ sample_rate: 24000, format: 'pcm_s16le', voices: [] }),
      speak(_text, id = `u${index}`) {
        const i = index++;
        events.push({ type: 'audio_start', id, index: i });
        events.push({ type: 'audio', id, index: i, data: CHUNK });
        events.push({ type: 'audio_end', id, index: i, samples: 2400, duration_ms: 100, synthesis_ms: 1, queue_ms: 0 });
        return id;
      },
      cancel: async () => [],
      end: async () => events.finish(),
      events: () => events,
      close: () => events.finish(),
    };
    return session;
  },
};

const context: TurnContext = {
  llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 1_000_000 }),
  tts: instantTts,
  defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
};

interface Block {
  wallMs: number[];
  cpuMs: number;
  turns: number;
}

async function block(observability: Observability, flush: () => Promise<void>): Promise<Block> {
  const wallMs: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < TURNS; i++) {
    const observed = observability.startTurn({
      requestId: `r${i}`,
      transport: 'sse',
      ttsTransport: 'websocket',
      voice: 'af_heart',
      format: 'pcm_s16le',
      mode: 'stream',
    });
    const t0 = performance.now();
    const result = await runTurn(context, {
      request: { prompt: PROMPT },
      emit: () => {},
      trace: observed.trace,
    });
    wallMs.push(performance.now() - t0);
    if (result.outcome !== 'completed') throw new Error(`turn ${result.outcome}: ${result.error?.message}`);
  }
  await flush(); // the export's work counts
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000, turns: TURNS };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** The receiver in a process of its own, so that its parsing does not count as the agent's CPU. */
async function startReceiverProcess(): Promise<{ url: string; spans: () => number; close: () => void }> {
  const code = `import { OtlpReceiver } from '@kokoro-speech/protocol/otlp-receiver';
const r = await OtlpReceiver.start();
console.log('url ' + r.url);
r.onSpans(() => console.log('spans ' + r.spans.length));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let count = 0;
  const url = await new Promise<string>((resolve) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (line.startsWith('url ')) resolve(line.slice(4));
        if (line.startsWith('spans ')) count = Number(line.slice(6));
      }
    });
  });
  return { url, spans: () => count, close: () => child.kill() };
}

const receiver = await startReceiverProcess();
const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
const off = { wallMs: [] as number[], cpuMs: 0, turns: 0 };
const on = { wallMs: [] as number[], cpuMs: 0, turns: 0 };
const warn = (m: string) => console.error(`warning: ${m}`);

// Warm-up (JIT, Strands' first agent), in both modes.
await block(new Observability(), async () => {});
{
  const tracing = startTracing(env, { serviceName: 'bench', warn });
  await block(new Observability({ tracer: tracing.tracer }), () => tracing.flush());
  await tracing.shutdown();
}
await new Promise((r) => setTimeout(r, 200));
const spansBefore = receiver.spans();

for (let r = 0; r < ROUNDS; r++) {
  // Off: nothing registered (Strands' spans are no-ops too), the pipeline's NoTurnTrace.
  const b = await block(new Observability(), async () => {});
  off.wallMs.push(...b.wallMs);
  off.cpuMs += b.cpuMs;
  off.turns += b.turns;
  // On: a provider registered for the block, exporting to the receiver.
  const tracing = startTracing(env, { serviceName: 'bench', warn });
  const t = await block(new Observability({ tracer: tracing.tracer }), () => tracing.flush());
  await tracing.shutdown();
  on.wallMs.push(...t.wallMs);
  on.cpuMs += t.cpuMs;
  on.turns += t.turns;
}
await new Promise((r) => setTimeout(r, 200)); // the receiver's last count
const spans = receiver.spans() - spansBefore;
receiver.close();

const row = (name: string, m: typeof off, exported: number) =>
  `${name.padEnd(12)} ${String(m.turns).padStart(6)} ${median(m.wallMs).toFixed(3).padStart(14)} ${(m.cpuMs / m.turns)
    .toFixed(3)
    .padStart(12)} ${String(exported).padStart(8)}`;
console.log(
  `tracing overhead: ${ROUNDS} blocks x ${TURNS} turns per mode, ${PROMPT.split('. ').length} sentences a turn`,
);
console.log(
  `${'mode'.padEnd(12)} ${'turns'.padStart(6)} ${'median wall ms'.padStart(14)} ${'cpu ms/turn'.padStart(12)} ${'spans'.padStart(8)}`,
);
console.log(row('off', off, 0));
console.log(row('on (OTLP)', on, spans));
const wallDiff = median(on.wallMs) - median(off.wallMs);
const cpuDiff = on.cpuMs / on.turns - off.cpuMs / off.turns;
console.log(
  `on - off: wall ${wallDiff.toFixed(3)} ms/turn (median), cpu ${cpuDiff.toFixed(3)} ms/turn; ratio on/off: wall ${(median(on.wallMs) / median(off.wallMs)).toFixed(2)}x, cpu ${(on.cpuMs / on.turns / (off.cpuMs / off.turns)).toFixed(2)}x; spans per turn ${(spans / on.turns).toFixed(1)}`,
);
