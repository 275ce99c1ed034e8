// mp3 (OpenAI's default response_format) and flac from the official `openai` client, decoded by
// independent decoders (mpg123 and libFLAC-free wasm-audio-decoders builds): the same audio as the
// pcm rendition (flac sample for sample; mp3 within LAME's delay and frame padding), and streamed:
// the first bytes arrive while a later sentence is still held back from synthesis.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { MPEGDecoder } from 'mpg123-decoder';
import OpenAI from 'openai';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import type { Engine } from '../engine/types.ts';
import { aroundRuns } from '../testing/around-runs.ts';
import { startServer, type RunningServer } from '../index.ts';
import { fixtureModelDir } from '../testing/test-support.ts';

let model: Awaited<ReturnType<typeof fixtureModelDir>>;
let engine: KokoroEngine;
let server: RunningServer;
let client: OpenAI;
/** While set, model runs of a piece starting "Afterwards" wait for it, then call `onSecond`. */
let gate: Promise<void> | null = null;
let onSecond: (() => void) | null = null;

/** The real engine, with a hold on later pieces so that a test can see what was sent before them. */
function holding(real: KokoroEngine): Engine {
  return aroundRuns(real, async (piece, run) => {
    if (gate && piece.text.startsWith('Afterwards')) {
      await gate;
      onSecond?.();
    }
    return run();
  });
}

const INPUT = 'Hello from Kokoro, in a compressed format. Afterwards a second sentence follows the first one.';

beforeAll(async () => {
  model = await fixtureModelDir();
  engine = await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 });
  server = await startServer({ engine: holding(engine) });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  await model?.remove();
});

type Format = 'mp3' | 'flac' | 'pcm';
async function speech(format: Format | undefined, input = INPUT): Promise<{ type: string | null; bytes: Buffer }> {
  const response = await client.audio.speech.create({
    model: 'tts-1',
    voice: 'af_heart',
    input,
    ...(format ? { response_format: format } : {}),
  });
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The pcm rendition as floats, as a decoder gives them. */
async function reference(input = INPUT): Promise<Float32Array> {
  const { bytes } = await speech('pcm', input);
  return Float32Array.from({ length: bytes.length / 2 }, (_, i) => bytes.readInt16LE(i * 2) / 32768);
}

async function decodeMp3(bytes: Uint8Array) {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    return decoder.decode(bytes);
  } finally {
    decoder.free();
  }
}

async function decodeFlac(bytes: Uint8Array) {
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    return await decoder.decodeFile(bytes);
  } finally {
    decoder.free();
  }
}

/** Normalised correlation of `b` shifted by `lag` against `a`, over a's length. */
function correlation(a: Float32Array, b: Float32Array, lag: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length && i + lag < b.length; i++) {
    ab += a[i]! * b[i + lag]!;
    aa += a[i]! * a[i]!;
    bb += b[i + lag]! * b[i + lag]!;
  }
  return ab / Math.sqrt(aa * bb);
}

/** The largest sample difference (no element-wise toEqual: jest's diff of 100k samples takes minutes). */
function maxDifference(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

/** LAME at 24 kHz: 576-sample frames, an encoder delay of 576 + 529 samples, the last frame padded. */
const MP3_FRAME = 576;
const MP3_MAX_EXTRA = 576 + 529 + 2 * MP3_FRAME;

describe('POST /v1/audio/speech: mp3 and flac', () => {
  test('no response_format is mp3 (OpenAI default): MPEG-2 Layer III at 24 kHz, the pcm audio after LAME delay', async () => {
    const { type, bytes } = await speech(undefined);
    expect(type).toBe('audio/mpeg');
    const decoded = await decodeMp3(bytes);
    expect(decoded.errors).toEqual([]);
    expect(decoded.sampleRate).toBe(24000);
    // (mpg123 gives mono as two equal channels.)
    const pcm = await reference();
    expect(decoded.samplesDecoded).toBeGreaterThanOrEqual(pcm.length);
    expect(decoded.samplesDecoded - pcm.length).toBeLessThanOrEqual(MP3_MAX_EXTRA);
    // The same signal: at the best lag within LAME's delay, nearly identical.
    const mono = decoded.channelData[0]!;
    const lags = Array.from({ length: MP3_MAX_EXTRA + 1 }, (_, lag) => lag);
    const second = pcm.subarray(0, 24000);
    const lag = lags.reduce((best, l) => (correlation(second, mono, l) > correlation(second, mono, best) ? l : best));
    expect(correlation(pcm, mono, lag)).toBeGreaterThan(0.95);
    // An explicit mp3 is the same stream.
    expect((await speech('mp3')).bytes.equals(bytes)).toBe(true);
  });

  test('flac is lossless: decoded sample for sample equal to the pcm rendition', async () => {
    const { type, bytes } = await speech('flac');
    expect(type).toBe('audio/flac');
    expect(bytes.toString('latin1', 0, 4)).toBe('fLaC');
    const decoded = await decodeFlac(bytes);
    expect(decoded.errors).toEqual([]);
    expect(decoded.sampleRate).toBe(24000);
    expect(decoded.bitDepth).toBe(16);
    const pcm = await reference();
    expect(decoded.samplesDecoded).toBe(pcm.length);
    // The decoder scales by 1/32767 where the reference took 1/32768: equal within that, far below one
    // 16-bit step (3e-5), which any lossy coding would exceed.
    expect(maxDifference(decoded.channelData[0]!, pcm)).toBeLessThan(1e-5);
  });

  test.each(['mp3', 'flac'] as const)(
    '%s is streamed: audio of the first sentence before the second is synthesised',
    async (format) => {
      const order: string[] = [];
      onSecond = () => order.push('second sentence synthesised');
      let release!: () => void;
      gate = new Promise<void>((resolve) => {
        release = () => {
          order.push('second sentence released');
          resolve();
        };
      });
      // A safety net, not a timing assertion: were nothing streamed, the test fails on order, not by hanging.
      const safety = setTimeout(release, 10_000);
      try {
        const response = await client.audio.speech.create({
          model: 'kokoro',
          voice: 'af_heart',
          input: INPUT,
          response_format: format,
        });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        const first = await reader.read();
        order.push('first bytes');
        release();
        const parts = [Buffer.from(first.value!)];
        for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(Buffer.from(r.value));
        // The first bytes came while the second sentence was held back from the model.
        expect(order).toEqual(['first bytes', 'second sentence released', 'second sentence synthesised']);
        // The first bytes are already audio, and the whole is the usual file.
        const whole = Buffer.concat(parts);
        if (format === 'mp3') {
          expect((await decodeMp3(parts[0]!)).samplesDecoded).toBeGreaterThan(0);
          expect(whole.equals((await speech('mp3')).bytes)).toBe(true);
        } else {
          expect(parts[0]!.toString('latin1', 0, 4)).toBe('fLaC');
          expect((await decodeFlac(whole)).samplesDecoded).toBe((await reference()).length);
        }
      } finally {
        clearTimeout(safety);
        gate = null;
      }
    },
  );

  test.each(['mp3', 'flac'] as const)(
    '%s: a caller that hangs up mid-stream (its encoder closed at once) leaves the next request whole',
    async (format) => {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      try {
        const abort = new AbortController();
        const response = await client.audio.speech.create(
          { model: 'kokoro', voice: 'af_heart', input: INPUT, response_format: format },
          { signal: abort.signal },
        );
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        expect((await reader.read()).done).toBe(false);
        abort.abort();
        release();
      } finally {
        gate = null;
      }
      const { bytes } = await speech(format);
      const samples =
        format === 'flac' ? (await decodeFlac(bytes)).samplesDecoded : (await decodeMp3(bytes)).samplesDecoded;
      expect(samples).toBeGreaterThanOrEqual((await reference()).length);
    },
  );
});
