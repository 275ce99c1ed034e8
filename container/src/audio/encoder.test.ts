import { describe, expect, test } from '@jest/globals';
import { UtteranceEncoder, audioHeaders, effectiveSampleRate } from './encoder.ts';
import { alawToLinear, floatToS16le, linearToAlaw, linearToMulaw, mulawToLinear } from './pcm.ts';
import { WAV_HEADER_BYTES, wavHeader } from './wav.ts';

describe('pcm', () => {
  test('float to s16le rounds and clips', () => {
    const b = floatToS16le(Float32Array.from([0, 1, -1, 2, -2, 0.5, Number.NaN]));
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => b.readInt16LE(i * 2))).toEqual([0, 32767, -32767, 32767, -32768, 16384, 0]);
  });

  test('mu-law round trip stays within G.711 quantisation error', () => {
    for (let s = -32768; s <= 32767; s += 7) {
      const back = mulawToLinear(linearToMulaw(s));
      expect(Math.abs(back - Math.max(-32635, Math.min(32635, s)))).toBeLessThanOrEqual(Math.max(8, Math.abs(s) / 16));
    }
    // known code points: silence is 0xFF, full scale positive 0x80
    expect(linearToMulaw(0)).toBe(0xff);
    expect(linearToMulaw(32767)).toBe(0x80);
    expect(linearToMulaw(-32768)).toBe(0x00);
  });

  test('A-law round trip stays within G.711 quantisation error, and every byte decodes back to itself', () => {
    for (let s = -32768; s <= 32767; s += 7) {
      const back = alawToLinear(linearToAlaw(s));
      // 13-bit A-law: steps of 16 up to 512, then half the segment's step size of error at most.
      expect(Math.abs(back - s)).toBeLessThanOrEqual(Math.max(16, Math.abs(s) / 32));
    }
    for (let byte = 0; byte < 256; byte++) expect(linearToAlaw(alawToLinear(byte))).toBe(byte);
    // known code points (even bits inverted): silence 0xD5, full scale positive 0xAA, negative 0x2A
    expect(linearToAlaw(0)).toBe(0xd5);
    expect(linearToAlaw(32767)).toBe(0xaa);
    expect(linearToAlaw(-32768)).toBe(0x2a);
  });
});

test('streaming WAV header', () => {
  const h = wavHeader({ sampleRate: 16000, encoding: 'pcm16' });
  expect(h.length).toBe(WAV_HEADER_BYTES);
  expect(h.toString('ascii', 0, 4)).toBe('RIFF');
  expect(h.readUInt32LE(4)).toBe(0xffffffff);
  expect(h.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect(h.readUInt16LE(20)).toBe(1);
  expect(h.readUInt16LE(22)).toBe(1);
  expect(h.readUInt32LE(24)).toBe(16000);
  expect(h.readUInt32LE(28)).toBe(32000);
  expect(h.readUInt16LE(32)).toBe(2);
  expect(h.readUInt16LE(34)).toBe(16);
  expect(h.toString('ascii', 36, 40)).toBe('data');
  expect(h.readUInt32LE(40)).toBe(0xffffffff);
});

describe('UtteranceEncoder', () => {
  const pieces = [new Float32Array(2400).fill(0.25), new Float32Array(1201).fill(-0.25)];

  test.each([
    ['pcm_s16le', 24000, 2, 3601],
    ['pcm_s16le', 16000, 2, 2401],
    ['wav', 8000, 2, 1201],
    ['mulaw', 8000, 1, 1201],
  ] as const)('%s at %i Hz: exact byte count', (format, rate, width, samples) => {
    const enc = new UtteranceEncoder({ format, sampleRate: rate }, 24000);
    const bytes = Buffer.concat([...pieces.map((p) => enc.write(p)), enc.end()]);
    const header = format === 'wav' ? WAV_HEADER_BYTES : 0;
    expect(enc.samples).toBe(samples);
    expect(bytes.length).toBe(header + samples * width);
    if (format === 'wav') expect(bytes.readUInt32LE(24)).toBe(rate);
  });

  test('wav header comes first even when the first piece is empty', () => {
    const enc = new UtteranceEncoder({ format: 'wav', sampleRate: 24000 }, 24000);
    expect(enc.write(new Float32Array(0)).length).toBe(WAV_HEADER_BYTES);
    expect(enc.write(new Float32Array(3)).length).toBe(6);
  });

  test('headers and the mulaw rate', () => {
    expect(effectiveSampleRate('mulaw', 24000)).toBe(8000);
    expect(effectiveSampleRate('wav', 16000)).toBe(16000);
    expect(audioHeaders({ format: 'pcm_s16le', sampleRate: 16000 })['content-type']).toBe(
      'audio/L16;rate=16000;channels=1',
    );
    expect(audioHeaders({ format: 'mulaw', sampleRate: 8000 })).toMatchObject({
      'x-audio-format': 'mulaw',
      'x-sample-rate': '8000',
      'x-channels': '1',
    });
  });
});

describe('pauses', () => {
  const tone = (n: number) => Float32Array.from({ length: n }, (_, i) => 0.5 * Math.sin(i / 5));

  test.each([
    [24000, 'pcm_s16le'],
    [16000, 'pcm_s16le'],
    [8000, 'pcm_s16le'],
    [8000, 'mulaw'],
  ] as const)(
    'exactly round(ms x rate) silent samples at %i Hz %s, between speech resampled on each side',
    (rate, format) => {
      const e = new UtteranceEncoder({ format, sampleRate: rate }, 24000);
      const before = Buffer.concat([e.write(tone(2400))]);
      const pause = e.pause(700);
      const after = Buffer.concat([e.write(tone(2400)), e.end()]);
      const width = format === 'mulaw' ? 1 : 2;
      const speech = Math.ceil((2400 * rate) / 24000);
      // What came before the pause plus the pause: the first stretch of speech complete, then the silence.
      const all = Buffer.concat([before, pause]);
      expect(all.length / width).toBe(speech + (700 * rate) / 1000);
      const silence = all.subarray(speech * width);
      expect(silence.every((b) => b === (format === 'mulaw' ? 0xff : 0))).toBe(true);
      expect(after.length / width).toBe(speech);
      expect(e.samples).toBe(2 * speech + (700 * rate) / 1000);
    },
  );
});
