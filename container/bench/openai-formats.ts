// What each compressed format of the OpenAI route costs to encode: ms of CPU per second of audio
// for mp3 (LAME, wasm), flac (libFLAC, asm.js) and opus (libopus via opusscript), fed as the
// route feeds them (one sentence of 16-bit PCM at a time), plus each encoder's start-up and the
// bytes per second it sends. Speech-like input: a tone with vibrato and noise, 24 kHz.
//   npm run -w container bench:formats
import { cpus } from 'node:os';
import { COMPRESSED_FORMATS, createStreamEncoder } from '../src/audio/stream-encoder.ts';
import { loadAverage } from './stats.ts';

const RATE = 24000;
const SECONDS = 60;
const SENTENCE_SAMPLES = 3 * RATE; // a 3-second sentence per write

function speechLike(): Buffer {
  const pcm = Buffer.alloc(SECONDS * RATE * 2);
  let phase = 0;
  for (let i = 0; i < SECONDS * RATE; i++) {
    const t = i / RATE;
    phase += (2 * Math.PI * (140 + 30 * Math.sin(2 * Math.PI * 3 * t))) / RATE;
    const envelope = 0.5 + 0.5 * Math.sin(2 * Math.PI * 4 * t);
    const x = 0.3 * envelope * (Math.sin(phase) + 0.3 * Math.sin(3 * phase)) + 0.01 * (Math.random() - 0.5);
    pcm.writeInt16LE(Math.round(Math.max(-1, Math.min(1, x)) * 32767), i * 2);
  }
  return pcm;
}

const pcm = speechLike();
console.log(`${cpus().length} cores (${cpus()[0]?.model}), load ${loadAverage()}; ${SECONDS} s of 24 kHz mono audio`);
console.log('| format | first encoder ms | next encoder ms | encode ms / s of audio | kbit/s |');
console.log('| --- | --- | --- | --- | --- |');
for (const format of COMPRESSED_FORMATS) {
  const starts: number[] = [];
  const perSecond: number[] = [];
  let bytes = 0;
  for (let round = 0; round < 4; round++) {
    const t0 = performance.now();
    const encoder = await createStreamEncoder(format, RATE);
    starts.push(performance.now() - t0);
    const cpu0 = process.cpuUsage();
    bytes = 0;
    for (let at = 0; at < pcm.length; at += SENTENCE_SAMPLES * 2) {
      bytes += encoder.write(pcm.subarray(at, at + SENTENCE_SAMPLES * 2)).length;
    }
    bytes += encoder.end().length;
    encoder.close();
    const cpu = process.cpuUsage(cpu0);
    perSecond.push((cpu.user + cpu.system) / 1000 / SECONDS);
  }
  const median = [...perSecond.slice(1)].sort((a, b) => a - b)[1]!; // round 0 warms the JIT
  console.log(
    `| ${format} | ${starts[0]!.toFixed(1)} | ${starts[1]!.toFixed(1)} | ${median.toFixed(2)} | ${((bytes * 8) / SECONDS / 1000).toFixed(1)} |`,
  );
}
