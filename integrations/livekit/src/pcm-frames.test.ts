// The frame cutter: fixed 100 ms frames whatever the messages' sizes (odd byte boundaries too),
// every byte once and in order, the rest on flush().
import { expect, test } from '@jest/globals';
import { PcmFrames } from './pcm-frames.ts';

const bytesOf = (frames: { data: Int16Array }[]) =>
  Buffer.concat(frames.map((f) => Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)));

test('messages of any size become 100 ms frames, every byte once, in order; flush gives the rest', () => {
  const audio = Buffer.alloc(24000 * 2 + 1234); // 1 s and 617 samples
  for (let i = 0; i < audio.length; i++) audio[i] = (i * 7) % 251;
  const cutter = new PcmFrames(24000);
  const frames = [];
  let offset = 0;
  for (const size of [1, 4801, 3, 32768, 7, 10000, 100000]) {
    frames.push(...cutter.write(audio.subarray(offset, offset + size)));
    offset = Math.min(audio.length, offset + size);
  }
  const whole = frames.length;
  frames.push(...cutter.flush());
  expect(frames.slice(0, whole).every((f) => f.samplesPerChannel === 2400 && f.sampleRate === 24000)).toBe(true);
  expect(frames.at(-1)!.samplesPerChannel).toBe(617);
  expect(frames.every((f) => f.channels === 1 && f.data.length === f.samplesPerChannel)).toBe(true);
  expect(bytesOf(frames).equals(audio)).toBe(true);
  expect(cutter.flush()).toEqual([]);
});

test('another rate and frame length; the caller may reuse its buffer after write()', () => {
  const cutter = new PcmFrames(16000, 160);
  const buffer = Buffer.alloc(500, 1);
  const first = cutter.write(buffer); // 250 samples: one frame of 160, 90 carried
  buffer.fill(2);
  const rest = cutter.write(buffer.subarray(0, 140)); // 90 + 70 = 160
  expect(first.map((f) => f.samplesPerChannel)).toEqual([160]);
  expect(rest.map((f) => f.samplesPerChannel)).toEqual([160]);
  expect(
    bytesOf(rest)
      .subarray(0, 180)
      .every((b) => b === 1),
  ).toBe(true);
  expect(
    bytesOf(rest)
      .subarray(180)
      .every((b) => b === 2),
  ).toBe(true);
  expect(rest[0]!.sampleRate).toBe(16000);
});
