// `say --audio`'s WAV reader: the encodings, rates and channel counts a user's file may have, each
// made the 16 kHz mono s16le a voice session takes, and files it cannot read refused by name.
import { describe, expect, test } from '@jest/globals';
import { testWav } from '../testing/test-wav.ts';
import { readWav, toVoicePcm, VOICE_RATE } from './wav-input.ts';

const tone = (rate: number, ms: number, hz: number, amplitude = 0.5) =>
  Array.from({ length: (rate * ms) / 1000 }, (_, i) => amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
const rms = (pcm: Int16Array, from = 0, to = pcm.length) => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (pcm[i]! / 32768) ** 2;
  return Math.sqrt(sum / (to - from));
};
/** Sign changes: twice the frequency per second of audio. */
const crossings = (pcm: Int16Array) => {
  let n = 0;
  for (let i = 1; i < pcm.length; i++) if (pcm[i - 1]! < 0 !== pcm[i]! < 0) n++;
  return n;
};

describe('readWav and toVoicePcm', () => {
  test('16 kHz mono 16-bit passes through sample for sample', () => {
    const ints = [0, 16_384, -16_383, 32_767, -32_767, 1, -1];
    const wav = testWav(
      { rate: 16_000, channels: 1, bits: 16 },
      ints.map((n) => [n / 32_767]),
    );
    expect([...toVoicePcm(readWav(wav))]).toEqual(ints);
  });

  test.each([
    ['22.05 kHz stereo 16-bit', { rate: 22_050, channels: 2, bits: 16 } as const],
    ['44.1 kHz stereo 24-bit', { rate: 44_100, channels: 2, bits: 24 } as const],
    ['48 kHz mono 32-bit float', { rate: 48_000, channels: 1, bits: 32, float: true } as const],
    ['48 kHz mono 32-bit integer, extensible', { rate: 48_000, channels: 1, bits: 32, extensible: true } as const],
    ['8 kHz mono 8-bit (telephone)', { rate: 8_000, channels: 1, bits: 8 } as const],
    ['16 kHz 6 channels, a LIST chunk first', { rate: 16_000, channels: 6, bits: 16, leadingChunk: true } as const],
  ])('%s: 16 kHz, the same length, pitch and level', (_name, format) => {
    const wave = tone(format.rate, 1000, 300);
    const wav = readWav(
      testWav(
        format,
        wave.map((x) => Array<number>(format.channels).fill(x)),
      ),
    );
    expect(wav).toMatchObject({ sampleRate: format.rate, channels: format.channels });
    const pcm = toVoicePcm(wav);
    expect(Math.abs(pcm.length - VOICE_RATE)).toBeLessThanOrEqual(VOICE_RATE / 100);
    expect(Math.abs(crossings(pcm) - 600)).toBeLessThanOrEqual(4); // 300 Hz for 1 s
    expect(Math.abs(rms(pcm, 800, 15_000) - 0.5 / Math.SQRT2)).toBeLessThan(0.02);
  });

  test('stereo is mixed down: opposite channels cancel, one silent channel halves the level', () => {
    const wave = tone(22_050, 500, 300);
    const opposite = toVoicePcm(
      readWav(
        testWav(
          { rate: 22_050, channels: 2, bits: 16 },
          wave.map((x) => [x, -x]),
        ),
      ),
    );
    expect(rms(opposite)).toBeLessThan(1e-3);
    const leftOnly = toVoicePcm(
      readWav(
        testWav(
          { rate: 22_050, channels: 2, bits: 16 },
          wave.map((x) => [x, 0]),
        ),
      ),
    );
    expect(Math.abs(rms(leftOnly, 800, 7_000) - 0.25 / Math.SQRT2)).toBeLessThan(0.02);
  });

  test('an empty data chunk is no audio, not an error', () => {
    expect(toVoicePcm(readWav(testWav({ rate: 22_050, channels: 2, bits: 16 }, [])))).toHaveLength(0);
  });

  test('files it cannot read are refused with what is wrong', () => {
    const good = testWav({ rate: 16_000, channels: 1, bits: 16 }, [[0.1], [0.2]]);
    expect(() => readWav(Buffer.from('ID3\x04 an mp3 file, not a wave file'))).toThrow(
      'not a WAV file (no RIFF/WAVE header)',
    );
    expect(() => readWav(Buffer.alloc(0))).toThrow('not a WAV file');
    expect(() => readWav(good.subarray(0, 36))).toThrow('the WAV file has no fmt or no data chunk');
    const adpcm = Buffer.from(good);
    adpcm.writeUInt16LE(2, 20); // Microsoft ADPCM
    expect(() => readWav(adpcm)).toThrow('unsupported WAV encoding (format 2, 16 bits): use PCM or 32-bit float');
    const float64 = testWav({ rate: 16_000, channels: 1, bits: 32, float: true }, [[0]]);
    float64.writeUInt16LE(64, 34);
    expect(() => readWav(float64)).toThrow('unsupported WAV encoding (format 3, 64 bits)');
    const noChannels = Buffer.from(good);
    noChannels.writeUInt16LE(0, 22);
    expect(() => readWav(noChannels)).toThrow('the WAV file says it has 0 channels');
    const noRate = Buffer.from(good);
    noRate.writeUInt32LE(0, 24);
    expect(() => readWav(noRate)).toThrow("the WAV file's sample rate 0 Hz is not 1000-384000 Hz");
    const shortFmt = Buffer.from(good);
    shortFmt.writeUInt32LE(8, 16); // fmt chunk of 8 bytes
    expect(() => readWav(shortFmt)).toThrow("the WAV file's fmt chunk is 8 bytes, not the 16 it needs");
  });
});
