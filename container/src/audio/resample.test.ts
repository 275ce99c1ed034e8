import { describe, expect, test } from '@jest/globals';
import { StreamingResampler } from './resample.ts';

const tone = (hz: number, rate: number, n: number) =>
  Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);

/** Magnitude of one frequency (single-bin DFT), normalised to a sine's amplitude. */
const amplitudeAt = (x: Float32Array, hz: number, rate: number) => {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i++) {
    re += x[i]! * Math.cos((2 * Math.PI * hz * i) / rate);
    im -= x[i]! * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / x.length;
};

const resampleAll = (input: Float32Array, outRate: number, chunk = input.length) => {
  const r = new StreamingResampler(24000, outRate);
  const parts: Float32Array[] = [];
  for (let i = 0; i < input.length; i += chunk) parts.push(r.process(input.subarray(i, i + chunk)));
  parts.push(r.flush());
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

describe.each([16000, 8000])('24000 -> %i', (outRate) => {
  test('a 1 kHz tone keeps its frequency and level', () => {
    const out = resampleAll(tone(1000, 24000, 24000), outRate);
    const middle = out.subarray(outRate / 10, out.length - outRate / 10);
    expect(amplitudeAt(middle, 1000, outRate)).toBeCloseTo(0.5, 2);
    // nearly all energy is at 1 kHz: the residual after removing the tone is tiny
    expect(amplitudeAt(middle, 1100, outRate)).toBeLessThan(0.01);
  });

  test('content above the new Nyquist frequency is attenuated by more than 40 dB', () => {
    for (const hz of [outRate * 0.55, outRate * 0.7, 11000]) {
      const input = tone(hz, 24000, 24000);
      const out = resampleAll(input, outRate);
      const middle = out.subarray(outRate / 10, out.length - outRate / 10);
      expect(20 * Math.log10(rms(middle) / rms(input))).toBeLessThan(-40);
    }
  });

  test.each([0, 1, 2, 3, 1001, 24000, 24001])('exact sample count for %i input samples', (n) => {
    expect(resampleAll(tone(440, 24000, n), outRate).length).toBe(Math.ceil((n * outRate) / 24000));
  });

  test('state carries across pieces: chunked output equals one-shot output', () => {
    const input = tone(700, 24000, 10007);
    const whole = resampleAll(input, outRate);
    for (const chunk of [1, 37, 500, 4096]) {
      const chunked = resampleAll(input, outRate, chunk);
      expect(chunked.length).toBe(whole.length);
      let maxDiff = 0;
      for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i]! - chunked[i]!));
      expect(maxDiff).toBeLessThan(1e-6);
    }
  });
});

test('bad rates are refused with a clear error', () => {
  expect(() => new StreamingResampler(8000, 24000)).toThrow(/only downsamples/);
  expect(() => new StreamingResampler(24000, 0)).toThrow(/positive integers/);
});

test('process after flush throws', () => {
  const r = new StreamingResampler(24000, 8000);
  r.flush();
  expect(() => r.process(new Float32Array(3))).toThrow(/flushed/);
});
