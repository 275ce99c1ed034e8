// The Ogg Opus writer against RFC 7845's page rules (checked here on the pages read back) and against
// an independent reader, opusinfo from Debian's opus-tools (.ci/run installs it), for packet counts
// that fill whole one-second pages (multiples of 50) and others.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OggOpusWriter, OpusStreamEncoder, readOggOpus } from './index.ts';

const RATE = 24000;
const FRAME = 480; // 20 ms at 24 kHz
const PRE_SKIP = 156; // the encoder's lookahead at 24 kHz
const PACKET_48K = 960;

/** `count` real Opus packets of a tone (each from one 20 ms frame). */
function packets(count: number): Uint8Array[] {
  const enc = new OpusStreamEncoder(RATE);
  const pcm = Buffer.alloc(count * FRAME * 2);
  for (let i = 0; i < count * FRAME; i++) pcm.writeInt16LE(Math.round(9000 * Math.sin(i / 9)), i * 2);
  const out = enc.write(pcm).map((r) => r.packet);
  enc.close();
  expect(out).toHaveLength(count);
  return out;
}

/**
 * RFC 7845: the ID header alone on the first page (BOS), the comment header completing on the
 * second (section 3); audio granule positions are the 48 kHz sample count at the end of the last
 * packet completing on the page, so they never decrease (section 4); the last page carries the
 * end-of-stream flag and packets, and its granule trims at most its last packet (section 4.4).
 */
function expectRfc7845Pages(file: Uint8Array, end: bigint): void {
  const { pages, preSkip } = readOggOpus(file);
  expect(preSkip).toBe(PRE_SKIP * 2);
  expect(pages[0]).toEqual({ granule: 0n, flags: 0x02, completedPackets: 1 });
  expect(pages[1]).toEqual({ granule: 0n, flags: 0, completedPackets: 1 });
  const audio = pages.slice(2);
  expect(audio.length).toBeGreaterThan(0);
  let previous = 0n;
  for (const [i, page] of audio.entries()) {
    const last = i === audio.length - 1;
    expect(page.flags).toBe(last ? 0x04 : 0);
    expect(page.completedPackets).toBeGreaterThan(0);
    const full = previous + BigInt(page.completedPackets * PACKET_48K);
    if (last) {
      expect(page.granule).toBeGreaterThan(full - BigInt(PACKET_48K));
      expect(page.granule).toBeLessThanOrEqual(full);
    } else {
      expect(page.granule).toBe(full);
    }
    previous = page.granule;
  }
  expect(previous).toBe(end);
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'ogg-opus-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** What opusinfo says of the file; a clear failure when opus-tools is not installed. */
async function opusinfo(file: Uint8Array, name: string): Promise<string> {
  const path = join(scratch, `${name}.opus`);
  await writeFile(path, file);
  const run = spawnSync('opusinfo', [path], { encoding: 'utf8' });
  if (run.error) {
    throw new Error(`opusinfo could not run (${run.error.message}): install Debian's opus-tools, as .ci/run does`);
  }
  expect(run.status).toBe(0);
  return run.stdout + run.stderr;
}

describe('OggOpusWriter pages (RFC 7845) and opusinfo', () => {
  // 1 and 50 packets: a file of exactly one audio page; 50, 100, 150: whole pages only.
  test.each([1, 2, 49, 50, 51, 100, 149, 150, 151])('%i packets, trimmed within the last one', async (count) => {
    const input = packets(count);
    for (const trim of [0, 1, FRAME - 1]) {
      const playable = Math.max(count * FRAME - PRE_SKIP - trim, 1);
      const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
      for (const p of input) ogg.add(p);
      const file = ogg.finish(playable);
      const end = BigInt(playable * 2 + PRE_SKIP * 2);
      expectRfc7845Pages(file, end);
      expect(readOggOpus(file).packets).toEqual(input);
      const info = await opusinfo(file, `n${count}-t${trim}`);
      expect(info).not.toMatch(/warning|error/i);
      const [, minutes, seconds] = /Playback length: (\d+)m:([\d.]+)s/.exec(info) ?? [];
      expect(Number(minutes) * 60 + Number(seconds)).toBeCloseTo(playable / RATE, 2);
    }
  });

  test('pages drained while writing (as the container streams them) make the same file', () => {
    const input = packets(100);
    const whole = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of input) whole.add(p);
    const streamed = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    const parts: Buffer[] = [];
    for (const p of input) {
      streamed.add(p);
      parts.push(streamed.drain());
    }
    parts.push(streamed.finish(100 * FRAME - PRE_SKIP));
    expect(Buffer.concat(parts)).toEqual(whole.finish(100 * FRAME - PRE_SKIP));
  });

  test('no end given: the last granule is the end of the last packet', async () => {
    const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of packets(50)) ogg.add(p);
    const file = ogg.finish();
    expectRfc7845Pages(file, 50n * BigInt(PACKET_48K));
    expect(await opusinfo(file, 'untrimmed')).not.toMatch(/warning|error/i);
  });

  test('packets wholly past the end are left out, so the trimming stays within the last packet', async () => {
    const input = packets(53);
    const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of input) ogg.add(p);
    const playable = 51 * FRAME - PRE_SKIP - 10; // ends inside packet 51
    const file = ogg.finish(playable);
    expectRfc7845Pages(file, BigInt(playable * 2 + PRE_SKIP * 2));
    expect(readOggOpus(file).packets).toEqual(input.slice(0, 51));
    expect(await opusinfo(file, 'dropped')).not.toMatch(/warning|error/i);
  });

  test('a page closes before its 255 lacing values run out (large packets)', () => {
    // A CELT fullband 20 ms TOC byte (RFC 6716 section 3.1) and 1,300 bytes: 6 lacing values each.
    const big = Array.from({ length: 90 }, (_, i) => Uint8Array.from({ length: 1301 }, (_, k) => (k ? i : 0xf8)));
    const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of big) ogg.add(p);
    const file = ogg.finish();
    const read = readOggOpus(file);
    expect(read.pages.slice(2).map((p) => p.completedPackets)).toEqual([42, 42, 6]);
    expect(read.packets).toEqual(big);
    expectRfc7845Pages(file, 90n * BigInt(PACKET_48K));
  });

  test('no packet: the headers and an empty end-of-stream page', () => {
    const file = new OggOpusWriter(RATE, PRE_SKIP, FRAME).finish(0);
    const read = readOggOpus(file);
    expect(read.packets).toEqual([]);
    expect(read.pages.at(-1)).toEqual({ granule: 0n, flags: 0x04, completedPackets: 0 });
  });

  test('misuse is a clear error', () => {
    const input = packets(60);
    const early = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of input) early.add(p);
    expect(() => early.finish(10 * FRAME)).toThrow(/playableSamples 4800 ends before the pages already written/);
    const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    expect(() => ogg.add(new Uint8Array(255 * 255))).toThrow(/65025 bytes does not fit one Ogg page/);
    expect(() => ogg.finish(-1)).toThrow(/whole number of samples, not -1/);
    ogg.add(input[0]!);
    ogg.finish();
    expect(() => ogg.add(input[1]!)).toThrow(/finished/);
    expect(() => ogg.finish()).toThrow(/already finished/);
  });

  test('a truncated file is an error naming where', () => {
    const ogg = new OggOpusWriter(RATE, PRE_SKIP, FRAME);
    for (const p of packets(3)) ogg.add(p);
    const file = ogg.finish();
    expect(() => readOggOpus(file.subarray(0, file.length - 5))).toThrow(/truncated Ogg page at byte \d+/);
  });
});
