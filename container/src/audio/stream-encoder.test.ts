// The OpenAI route's encoders on their own: pieces in, a stream an independent decoder reads back;
// empty pieces, closing twice, and use after close.
import { describe, expect, test } from '@jest/globals';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { MPEGDecoder } from 'mpg123-decoder';
import { createStreamEncoder, s16leToFloat } from './stream-encoder.ts';

/** `seconds` of a 440 Hz tone as s16le, cut into pieces of `pieceSamples`. */
function tonePieces(seconds: number, pieceSamples: number): Buffer[] {
  const all = Buffer.alloc(seconds * 24000 * 2);
  for (let i = 0; i < seconds * 24000; i++)
    all.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24000)), i * 2);
  const pieces: Buffer[] = [];
  for (let at = 0; at < all.length; at += pieceSamples * 2) pieces.push(all.subarray(at, at + pieceSamples * 2));
  return pieces;
}

describe('stream encoders', () => {
  test('s16le to float: -32768..32767 to [-1, 1)', () => {
    const pcm = Buffer.alloc(6);
    pcm.writeInt16LE(-32768, 0);
    pcm.writeInt16LE(16384, 2);
    pcm.writeInt16LE(32767, 4);
    expect([...s16leToFloat(pcm)]).toEqual([-1, 0.5, 32767 / 32768]);
    // An odd offset into a larger buffer reads the right bytes.
    expect([...s16leToFloat(Buffer.concat([Buffer.alloc(1), pcm]).subarray(1))]).toEqual([-1, 0.5, 32767 / 32768]);
  });

  test('mp3: empty pieces are fine; the frames written as pieces come decode to the whole input plus LAME delay', async () => {
    const encoder = await createStreamEncoder('mp3', 24000);
    expect(encoder.contentType).toBe('audio/mpeg');
    const out = [encoder.write(Buffer.alloc(0))];
    for (const piece of tonePieces(1, 2400)) out.push(encoder.write(piece));
    expect(out.slice(1).some((b) => b.length > 0)).toBe(true); // frames before the end
    out.push(encoder.end());
    encoder.close();
    encoder.close();
    const decoder = new MPEGDecoder();
    await decoder.ready;
    const decoded = decoder.decode(new Uint8Array(Buffer.concat(out)));
    decoder.free();
    expect(decoded.errors).toEqual([]);
    expect(decoded.samplesDecoded).toBeGreaterThanOrEqual(24000);
    expect(decoded.samplesDecoded).toBeLessThanOrEqual(24000 + 576 + 529 + 2 * 576);
  });

  test('flac: header first, lossless, and refused after close', async () => {
    const encoder = await createStreamEncoder('flac', 24000);
    expect(encoder.contentType).toBe('audio/flac');
    const pieces = tonePieces(1, 1000);
    const out = [encoder.write(pieces[0]!)];
    expect(out[0]!.toString('latin1', 0, 4)).toBe('fLaC');
    for (const piece of pieces.slice(1)) out.push(encoder.write(piece));
    out.push(encoder.end());
    encoder.close();
    expect(() => encoder.write(pieces[0]!)).toThrow('the FLAC encoder is closed');
    expect(() => encoder.end()).toThrow('the FLAC encoder is closed');
    const decoder = new FLACDecoder();
    await decoder.ready;
    const decoded = await decoder.decodeFile(new Uint8Array(Buffer.concat(out)));
    decoder.free();
    expect(decoded.samplesDecoded).toBe(24000);
    const input = s16leToFloat(Buffer.concat(pieces));
    let worst = 0;
    for (let i = 0; i < input.length; i++) worst = Math.max(worst, Math.abs(decoded.channelData[0]![i]! - input[i]!));
    expect(worst).toBeLessThan(1e-5);
  });

  test('encoders are independent: two flac streams interleaved decode to their own input', async () => {
    const [a, b] = await Promise.all([createStreamEncoder('flac', 24000), createStreamEncoder('flac', 24000)]);
    const loud = tonePieces(1, 4800);
    const quiet = loud.map((p) => {
      const q = Buffer.alloc(p.length);
      for (let i = 0; i < p.length; i += 2) q.writeInt16LE(p.readInt16LE(i) >> 3, i);
      return q;
    });
    const outA: Buffer[] = [];
    const outB: Buffer[] = [];
    loud.forEach((p, i) => {
      outA.push(a!.write(p));
      outB.push(b!.write(quiet[i]!));
    });
    outA.push(a!.end());
    outB.push(b!.end());
    const decoder = new FLACDecoder();
    await decoder.ready;
    const peak = async (bytes: Buffer[]) => {
      await decoder.reset();
      const d = await decoder.decodeFile(new Uint8Array(Buffer.concat(bytes)));
      return Math.max(...d.channelData[0]!.map(Math.abs));
    };
    expect(await peak(outA)).toBeCloseTo(8000 / 32768, 3);
    expect(await peak(outB)).toBeCloseTo(1000 / 32768, 3);
    decoder.free();
  });
});
