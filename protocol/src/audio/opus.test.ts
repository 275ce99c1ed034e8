import { describe, expect, test } from '@jest/globals';
import {
  OggOpusWriter,
  OpusScriptDecoder,
  OpusStreamEncoder,
  opusLookahead,
  packOpusRecords,
  readOggOpus,
  unpackOpusRecords,
  type OpusRate,
} from './index.ts';

/** Deterministic noise (a wideband signal lines up unambiguously) or a tone, as PCM s16le. */
function pcm(samples: number, kind: 'noise' | 'tone', rate = 24000, seed = 1): Buffer {
  const out = Buffer.alloc(samples * 2);
  let x = seed;
  for (let i = 0; i < samples; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const v = kind === 'noise' ? (x / 2 ** 31 - 0.5) * 0.6 : 0.4 * Math.sin((2 * Math.PI * 440 * i) / rate);
    out.writeInt16LE(Math.round(v * 32767), i * 2);
  }
  return out;
}
const samplesOf = (b: Buffer) => Array.from({ length: b.length / 2 }, (_, i) => b.readInt16LE(i * 2));

/** The lag (0..maxLag) at which `b` best matches `a`. */
function bestLag(a: number[], b: number[], maxLag: number): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = 0; lag <= maxLag; lag++) {
    let score = 0;
    for (let i = 0; i + lag < b.length && i < a.length; i++) score += a[i]! * b[i + lag]!;
    if (score > bestScore) [best, bestScore] = [lag, score];
  }
  return best;
}

describe('OpusStreamEncoder', () => {
  test.each([24000, 16000, 8000] as const)('the decoder lags by the documented lookahead at %i Hz', (rate) => {
    const enc = new OpusStreamEncoder(rate);
    const dec = new OpusScriptDecoder(rate);
    const input = pcm(rate / 5, 'noise', rate);
    const records = [...enc.write(input), ...enc.endSentence()];
    const decoded = Buffer.concat(records.map((r) => dec.decodeAll(r.packet)));
    expect(bestLag(samplesOf(input), samplesOf(decoded), rate / 50)).toBe(opusLookahead(rate));
    expect(records[0]!.skip).toBe(opusLookahead(rate));
    enc.close();
    dec.close();
  });

  test('20 ms frames; each sentence keeps exactly its samples, in place, whatever its length and chunking', () => {
    const rate: OpusRate = 24000;
    const enc = new OpusStreamEncoder(rate);
    const dec = new OpusScriptDecoder(rate);
    expect(enc.info).toMatchObject({ frameSamples: 480, preSkip: 156 });
    const sentences = [pcm(12_345, 'tone'), pcm(480, 'tone', rate, 2), pcm(7, 'tone', rate, 3), pcm(24_000, 'tone')];
    for (const input of sentences) {
      const records = [];
      // Odd-sized chunks, as audio arrives: some end mid-sample.
      for (let at = 0; at < input.length; at += 1001) records.push(...enc.write(input.subarray(at, at + 1001)));
      records.push(...enc.endSentence());
      expect(records.reduce((n, r) => n + r.keep, 0)).toBe(input.length / 2);
      const out = dec.decode(records);
      expect(out.length).toBe(input.length);
      if (input.length >= 4800) {
        // In place (no shift) and close to the input: a lossy codec, but the same signal.
        expect(bestLag(samplesOf(input), samplesOf(out), 40)).toBe(0);
        const a = samplesOf(input);
        const b = samplesOf(out);
        const signal = a.reduce((s, v) => s + v * v, 0);
        const noise = a.reduce((s, v, i) => s + (v - b[i]!) ** 2, 0);
        expect(10 * Math.log10(signal / noise)).toBeGreaterThan(10);
      }
    }
    // Nothing written: nothing to flush.
    expect(enc.endSentence()).toEqual([]);
    enc.close();
    expect(() => enc.write(Buffer.alloc(2))).toThrow(/closed/);
    dec.close();
  });
});

describe('framing', () => {
  test('records round-trip; a truncated chunk is an error naming where', () => {
    const records = [
      { packet: Uint8Array.of(1, 2, 3), skip: 156, keep: 324 },
      { packet: new Uint8Array(0), skip: 480, keep: 0 },
      { packet: Uint8Array.of(9), skip: 0, keep: 480 },
    ];
    const chunk = packOpusRecords(records);
    expect(chunk.byteLength).toBe(3 * 6 + 4);
    expect(unpackOpusRecords(chunk).map((r) => ({ ...r, packet: [...r.packet] }))).toEqual(
      records.map((r) => ({ ...r, packet: [...r.packet] })),
    );
    expect(() => unpackOpusRecords(chunk.subarray(0, 7))).toThrow(/truncated Opus packet at byte 6/);
    expect(() => unpackOpusRecords(chunk.subarray(0, 4))).toThrow(/truncated Opus record header at byte 0/);
  });
});

describe('OggOpusWriter', () => {
  test('writes a file that reads back: head, tags, every packet, CRCs, and the end trimmed by the last granule', () => {
    const enc = new OpusStreamEncoder(24000);
    const input = pcm(30_000, 'tone');
    const records = [...enc.write(input), ...enc.endSentence()];
    const ogg = new OggOpusWriter(24000, enc.info.preSkip, enc.info.frameSamples);
    for (const r of records) ogg.add(r.packet);
    const file = ogg.finish(30_000);
    const back = readOggOpus(file);
    expect(back).toMatchObject({ channels: 1, preSkip: 312, inputRate: 24000 });
    expect(back.packets.map((p) => [...p])).toEqual(records.map((r) => [...r.packet]));
    expect(back.lastGranule).toBe(BigInt(30_000 * 2 + 312));
    const corrupt = Buffer.from(file);
    corrupt[corrupt.length - 1]! ^= 0xff;
    expect(() => readOggOpus(corrupt)).toThrow(/bad CRC/);
    enc.close();
  });
});
