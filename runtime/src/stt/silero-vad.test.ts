import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { concatPcm, silence, speak, whiteNoise } from '../testing/spoken-audio.ts';
import { SileroVad } from './silero-vad.ts';
import { STT_SAMPLE_RATE, type VadEvent } from './types.ts';

let vad: SileroVad;
beforeAll(async () => {
  vad = await SileroVad.load();
});
afterAll(() => vad.close());

/** Pushes `pcm` in microphone-sized pieces (20 ms, not a multiple of the VAD's window). */
async function detect(pcm: Int16Array): Promise<VadEvent[]> {
  vad.reset();
  const events: VadEvent[] = [];
  for (let at = 0; at < pcm.length; at += 320) events.push(...(await vad.push(pcm.subarray(at, at + 320))));
  return events;
}

const ms = (samples: number) => (samples * 1000) / STT_SAMPLE_RATE;

test('real speech between silences: one onset near the speech, one end after it', async () => {
  const speech = await speak('The quick brown fox jumps over the lazy dog.');
  const events = await detect(concatPcm(silence(1000), speech, silence(1500)));
  expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end']);
  // Onset within ~150 ms of where espeak-ng's audio begins; end within ~300 ms of where it ends.
  expect(Math.abs(ms(events[0]!.sample) - 1000)).toBeLessThan(150);
  expect(Math.abs(ms(events[1]!.sample) - (1000 + ms(speech.length)))).toBeLessThan(300);
});

test('two sentences with a long pause: two utterances, in order', async () => {
  const first = await speak('Hello there.');
  const second = await speak('How are you today?');
  const events = await detect(concatPcm(silence(500), first, silence(1200), second, silence(1000)));
  expect(events.map((e) => e.type)).toEqual(['speech_start', 'speech_end', 'speech_start', 'speech_end']);
  const samples = events.map((e) => e.sample);
  expect([...samples].sort((a, b) => a - b)).toEqual(samples);
});

test('silence and white noise give no speech', async () => {
  expect(await detect(silence(3000))).toEqual([]);
  expect(await detect(whiteNoise(3000, 0.05))).toEqual([]);
  expect(await detect(whiteNoise(3000, 0.3, 7))).toEqual([]);
});

test('speech shorter than the minimum (a clipped syllable) is not reported', async () => {
  const word = await speak('Yes');
  // 150 ms of a real syllable: speech, but under the 250 ms minimum.
  const onset = word.findIndex((x) => Math.abs(x) > 1000);
  const burst = word.subarray(onset, onset + (STT_SAMPLE_RATE * 150) / 1000);
  expect(await detect(concatPcm(silence(500), burst, silence(1500)))).toEqual([]);
});

test('overlapping pushes are refused, not interleaved', async () => {
  vad.reset();
  const first = vad.push(silence(100));
  await expect(vad.push(silence(100))).rejects.toThrow(/must not overlap/);
  await first;
});
