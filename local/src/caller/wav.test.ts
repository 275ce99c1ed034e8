import { describe, expect, test } from '@jest/globals';
import { wavHeader } from '@kokoro-speech/container/audio';
import { encodeWav, parseWav } from './wav.ts';

describe('WAV encoding', () => {
  test('a file of chunks reads back with its rate, sample count and duration', () => {
    const chunks = [new Uint8Array(4800 * 2), new Uint8Array(2400 * 2).fill(7)];
    const file = encodeWav(24000, chunks);
    expect(file.byteLength).toBe(44 + 7200 * 2);
    expect(parseWav(file)).toEqual({
      sampleRate: 24000,
      channels: 1,
      bitsPerSample: 16,
      samples: 7200,
      durationMs: 300,
    });
    expect(file.subarray(44 + 4800 * 2)[0]).toBe(7);
  });

  test('an empty answer is still a valid file', () => {
    expect(parseWav(encodeWav(16000, [])).samples).toBe(0);
  });

  test('refuses half samples and bad rates, and rejects truncated files', () => {
    expect(() => wavHeader({ sampleRate: 24000, encoding: 'pcm16' }, 3)).toThrow(/whole number of samples/);
    expect(() => wavHeader({ sampleRate: 0, encoding: 'pcm16' }, 2)).toThrow(/sample rate/);
    const file = encodeWav(24000, [new Uint8Array(100)]);
    expect(() => parseWav(file.subarray(0, 100))).toThrow(/size/);
    expect(() => parseWav(Buffer.from('not a wav file at all, not at all, no, no.....'))).toThrow(/RIFF/);
  });
});
