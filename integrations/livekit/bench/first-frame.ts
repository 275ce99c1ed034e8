// First frame latency of the LiveKit plugin against the real container on the stand-in model,
// through the local SageMaker router and over the container's WebSocket: from the pushText() that
// completes the first sentence to the first frame out of stream(), with the stream opened ahead
// (AgentSession opens it when the reply starts; the session connects while the LLM writes) and
// opened at that moment; synthesize() likewise; and the session layer alone (the same sentence
// spoken on an open session, to its first audio event), whose ratio is what the plugin adds; and
// what cutting one 32 KiB container message into frames costs, LiveKit's AudioByteStream against
// the plugin's PcmFrames (why the plugin cuts its own).
// Run: npm run bench -w integrations/livekit    (ROUNDS=n, default 30)
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { SageMakerBidiTransport, WebSocketTransport } from '@kokoro-speech/runtime/tts';
import type { TtsTransport } from '@kokoro-speech/runtime/tts';
import { AudioByteStream } from '@livekit/agents';
import { TTS } from '../src/index.ts';
import { PcmFrames } from '../src/pcm-frames.ts';
import type { TTSOptions } from '../src/index.ts';
import { quietLiveKit, startStandIn } from '../src/testing/stand-in.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const FIRST = 'Sure, I can help you with that order today.';
const NEXT = ' It shipped yesterday and should arrive on Thursday.';

quietLiveKit();
const standIn = await startStandIn();

const ms = (from: number) => performance.now() - from;
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;

async function firstFrame(stream: AsyncIterator<unknown>): Promise<void> {
  const { done } = await stream.next();
  if (done) throw new Error('the stream ended without a frame');
}

/** stream(): opened `aheadMs` before the first sentence is complete (0: at that moment). */
async function streamed(options: TTSOptions, aheadMs: number): Promise<number> {
  const kokoro = new TTS({ ...options, voice: 'af_heart' });
  const stream = kokoro.stream();
  if (aheadMs > 0) await sleep(aheadMs);
  const start = performance.now();
  stream.pushText(FIRST + NEXT.slice(0, 4)); // what follows the period completes the sentence
  await firstFrame(stream);
  const took = ms(start);
  stream.close();
  return took;
}

async function synthesized(options: TTSOptions): Promise<number> {
  const kokoro = new TTS({ ...options, voice: 'af_heart' });
  const start = performance.now();
  const chunked = kokoro.synthesize(FIRST);
  await firstFrame(chunked);
  const took = ms(start);
  chunked.close();
  return took;
}

/** The session layer alone: the sentence spoken on an open session, to its first audio event. */
async function sessionLayer(transport: TtsTransport): Promise<number> {
  const session = await transport.open({ voice: 'af_heart', format: 'pcm_s16le', sample_rate: 24000 });
  const start = performance.now();
  session.speak(FIRST);
  for await (const e of session.events()) if (e.type === 'audio') break;
  const took = ms(start);
  session.close();
  return took;
}

const modes: { name: string; options: TTSOptions; transport: TtsTransport }[] = [
  {
    name: 'SageMaker bidi (local router)',
    options: standIn.modes.sagemaker,
    transport: new SageMakerBidiTransport({
      endpointName: 'kokoro',
      region: 'us-east-1',
      credentials: standIn.modes.sagemaker.credentials!,
      endpoint: standIn.router.url,
    }),
  },
  {
    name: 'WebSocket (direct)',
    options: standIn.modes.websocket,
    transport: new WebSocketTransport({ url: standIn.container.wsUrl }),
  },
];

const cases = (m: (typeof modes)[number]) => ({
  'stream(), opened ahead': () => streamed(m.options, 300),
  'stream(), opened at the sentence': () => streamed(m.options, 0),
  'synthesize()': () => synthesized(m.options),
  'session layer alone (open session)': () => sessionLayer(m.transport),
});

const results = new Map<string, number[]>();
for (let round = 0; round < ROUNDS + 2; round++) {
  // Interleaved, round by round; the first two rounds warm up and are not counted.
  for (const m of modes)
    for (const [label, run] of Object.entries(cases(m))) {
      const took = await run();
      if (round < 2) continue;
      const key = `${m.name} | ${label}`;
      results.set(key, [...(results.get(key) ?? []), took]);
    }
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds, ${cpus().length} cores (${cpu}), load ${loadavg()[0]!.toFixed(1)}`,
);
console.log('| mode | what | p50 ms | p90 ms | p50 / session layer |');
console.log('|---|---|---|---|---|');
for (const m of modes) {
  const base = pct(results.get(`${m.name} | session layer alone (open session)`)!, 0.5);
  for (const label of Object.keys(cases(m))) {
    const v = results.get(`${m.name} | ${label}`)!;
    const p50 = pct(v, 0.5);
    console.log(
      `| ${m.name} | ${label} | ${p50.toFixed(1)} | ${pct(v, 0.9).toFixed(1)} | ${(p50 / base).toFixed(2)} |`,
    );
  }
}

/** ms to cut one 32 KiB message (the container's largest) into 100 ms frames, p50 of 200. */
function cutting(make: () => { write(b: Uint8Array): unknown[] }): number {
  const message = new Uint8Array(32 * 1024);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const cutter = make();
    const start = performance.now();
    cutter.write(message);
    times.push(ms(start));
  }
  return pct(times, 0.5);
}
const livekit = cutting(() => new AudioByteStream(24000, 1));
const own = cutting(() => new PcmFrames(24000));
console.log(
  `\nCutting one 32 KiB message into frames, p50: AudioByteStream ${livekit.toFixed(3)} ms, PcmFrames ${own.toFixed(3)} ms (${(livekit / own).toFixed(0)}x)`,
);
await standIn.close();
