// The Silero VAD's cost per 32 ms window on this machine (node runtime/bench/vad.ts): real speech
// from espeak-ng with silence around it, pushed in 20 ms frames as a microphone sends them.
import { performance } from 'node:perf_hooks';
import { cpus } from 'node:os';
import { SileroVad, SILERO_WINDOW } from '../src/stt/silero-vad.ts';
import { STT_SAMPLE_RATE } from '../src/stt/types.ts';
import { concatPcm, silence, speak } from '../src/testing/spoken-audio.ts';

const vad = await SileroVad.load();
const speech = await speak('The quick brown fox jumps over the lazy dog, and then it runs away.');
const audio = concatPcm(...Array.from({ length: 10 }, () => concatPcm(silence(700), speech)));
const rounds = 3;
const times: number[] = [];
for (let r = 0; r < rounds; r++) {
  vad.reset();
  const t0 = performance.now();
  for (let at = 0; at < audio.length; at += 320) await vad.push(audio.subarray(at, at + 320));
  times.push(performance.now() - t0);
}
const windows = Math.floor(audio.length / SILERO_WINDOW);
const best = Math.min(...times);
const seconds = audio.length / STT_SAMPLE_RATE;
console.log(
  `machine: ${cpus()[0]?.model} x${cpus().length}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log(`audio: ${seconds.toFixed(1)} s, ${windows} windows of ${SILERO_WINDOW} samples; best of ${rounds}`);
console.log(
  `per window: ${((best / windows) * 1000).toFixed(0)} us; real-time factor ${(best / 1000 / seconds).toFixed(4)}`,
);
await vad.close();
