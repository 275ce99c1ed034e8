// Weighted voice blends (Kokoro-FastAPI's `a(2)+b(1)`) on every container route, on the stand-in
// model, whose tone is 0.1 + 0.1 * sigmoid(mean(style)) loud: two voice files of constant style
// (+2 and -2) make the blend's weights audible in the peak amplitude.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import { writeFixtureModel } from '../fixture/index.ts';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import { BLEND_CACHE_SIZE, STYLE_DIM, STYLE_ROWS, VoiceStore } from '../engine/voices.ts';
import { startServer, type RunningServer } from '../index.ts';
import { TestClient } from '../testing/test-support.ts';

let dir: string;
let engine: KokoroEngine;
let server: RunningServer;

const constantVoice = (value: number) => new Float32Array(STYLE_ROWS * STYLE_DIM).fill(value);
/** The stand-in's tone amplitude for a style whose mean is `mean`. */
const amplitude = (mean: number) => 0.1 + 0.1 / (1 + Math.exp(-mean));
/** Peak of s16le audio, as a fraction of full scale. */
const peak = (bytes: Buffer) => {
  let max = 0;
  for (let i = 0; i + 1 < bytes.length; i += 2) max = Math.max(max, Math.abs(bytes.readInt16LE(i)));
  return max / 32767;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-blends-'));
  await writeFixtureModel(dir);
  await mkdir(join(dir, 'voices'));
  await writeFile(join(dir, 'voices', 'af_hi.bin'), constantVoice(2));
  await writeFile(join(dir, 'voices', 'af_lo.bin'), constantVoice(-2));
  engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
  server = await startServer({ engine, config: { maxTextChars: 2000 } });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const invoke = (body: unknown) =>
  fetch(`${server.url}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('voice blends', () => {
  test('POST /invocations: the style is the weighted sum (weights divided by their sum)', async () => {
    const cases: [string, number][] = [
      ['af_hi', 2],
      ['af_lo', -2],
      ['af_hi+af_lo', 0],
      ['af_hi(3)+af_lo(1)', 1],
      ['af_hi(1)+af_lo(3)', -1],
      ['af_hi(3)-af_lo', 2], // Kokoro-FastAPI's subtraction: 3/4 * 2 - 1/4 * (-2)
    ];
    for (const [voice, mean] of cases) {
      const res = await invoke({ text: 'Blend me.', voice, format: 'pcm_s16le' });
      expect(res.status).toBe(200);
      expect(peak(Buffer.from(await res.arrayBuffer()))).toBeCloseTo(amplitude(mean), 2);
    }
  });

  test('protocol v1: config.voice takes a blend, and its audio is the blend', async () => {
    const client = await TestClient.connect(`${server.url.replace('http', 'ws')}${BIDI_PATH}`);
    try {
      client.send({ type: 'config', voice: 'af_hi(3) + af_lo(1)' });
      client.send({ type: 'text', text: 'Blend me.', id: 'b' });
      await client.next((m) => m.type === 'audio_end');
      expect(peak(client.audioById().get('b')!)).toBeCloseTo(amplitude(1), 2);
      expect(client.messages.some((m) => m.type === 'error')).toBe(false);
    } finally {
      await client.close();
    }
  });

  test('protocol v1: bad blends are errors naming the problem; the session goes on', async () => {
    const client = await TestClient.connect(`${server.url.replace('http', 'ws')}${BIDI_PATH}`);
    try {
      const refused: [string, string, RegExp][] = [
        ['af_hi+zz_nobody', 'unknown_voice', /unknown voice "zz_nobody" in the blend .*; available: .*af_hi/],
        ['af_hi(0)+af_lo', 'invalid_message', /weight of af_hi must be a positive number, got 0 at position 7/],
        ['af_hi+(2)', 'invalid_message', /expected a voice id, found "\(" at position 7/],
        [Array(9).fill('af_hi').join('+'), 'invalid_message', /more than 8 voices/],
      ];
      for (const [voice, code, message] of refused) {
        const from = client.frames.length;
        client.send({ type: 'config', voice });
        const error = await client.next((m) => m.type === 'error', from);
        expect(error).toMatchObject({ code });
        expect((error as { message: string }).message).toMatch(message);
      }
      client.send({ type: 'config', voice: 'af_lo' });
      client.send({ type: 'text', text: 'Still here.', id: 'ok' });
      await client.next((m) => m.type === 'audio_end');
      expect(peak(client.audioById().get('ok')!)).toBeCloseTo(amplitude(-2), 2);
    } finally {
      await client.close();
    }
  });

  test('POST /invocations: a bad blend is a 400 naming it', async () => {
    const res = await invoke({ text: 'hi', voice: 'af_hi(-1)+af_lo' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: 'invalid_message', message: expect.stringMatching(/got -1/) },
    });
    const unknown = await invoke({ text: 'hi', voice: 'af_hi+xx_nobody' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: {
        code: 'unknown_voice',
        message: expect.stringMatching(/xx_nobody.*af_lo/),
      },
    });
  });

  test('the OpenAI route: voice takes a blend; a bad one is an OpenAI-shaped 400 on voice', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
    const response = await client.audio.speech.create({
      model: 'kokoro',
      voice: 'af_hi(1)+af_lo(3)',
      input: 'Blend me.',
      response_format: 'pcm',
    });
    expect(peak(Buffer.from(await response.arrayBuffer()))).toBeCloseTo(amplitude(-1), 2);
    const error = await client.audio.speech
      .create({ model: 'kokoro', voice: 'af_hi+', input: 'x', response_format: 'pcm' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('voice');
    expect((error as Error).message).toMatch(/a voice id is missing at position 7/);
  });

  test('a blend speaks its first voice language (Spanish first: espeak-ng; English first: kokoro-js)', async () => {
    const spanish = await engine.prepare('Hola amigo.', 'ef_dora(1)+af_hi(1)');
    expect(spanish.map((p) => p.phonemes)).toEqual(
      (await engine.prepare('Hola amigo.', 'ef_dora')).map((p) => p.phonemes),
    );
    const english = await engine.prepare('Hola amigo.', 'af_hi(1)+ef_dora(1)');
    expect(english.map((p) => p.phonemes)).toEqual(
      (await engine.prepare('Hola amigo.', 'af_heart')).map((p) => p.phonemes),
    );
    expect(english.map((p) => p.phonemes)).not.toEqual(spanish.map((p) => p.phonemes));
  });

  test(`blends are mixed once and kept, at most ${BLEND_CACHE_SIZE}`, async () => {
    const store = await VoiceStore.open(dir, new Set());
    const first = await store.style('af_hi(1)+af_lo(3)', 5);
    expect(first[0]).toBeCloseTo(-1, 6);
    expect((await store.style('af_hi(2)+af_lo(6)', 5)).buffer).toBe(first.buffer); // the same shares: the same tensor
    for (let w = 1; w <= BLEND_CACHE_SIZE + 8; w++) await store.style(`af_hi(${w})+af_lo`, 0);
    expect(store.blendsCached).toBe(BLEND_CACHE_SIZE);
  });

  test('KOKORO_VOICE may be a blend; a blend with an unknown voice stops start-up, naming it', async () => {
    const blended = await startServer({
      engine: loadKokoroEngine({ modelDir: dir, prepWorkers: 1 }),
      config: { defaultVoice: 'af_hi(3)+af_lo' },
    });
    try {
      const res = await fetch(`${blended.url}/invocations`, {
        method: 'POST',
        body: JSON.stringify({ text: 'Default blend.', format: 'pcm_s16le' }),
      });
      expect(peak(Buffer.from(await res.arrayBuffer()))).toBeCloseTo(amplitude(1), 2);
    } finally {
      await blended.close();
    }
    const refused = await startServer({
      engine: loadKokoroEngine({ modelDir: dir, prepWorkers: 1 }),
      config: { defaultVoice: 'af_hi+zz_nobody' },
      waitUntilReady: false,
    });
    try {
      await expect(refused.ready).rejects.toThrow(
        /KOKORO_VOICE "af_hi\+zz_nobody" is not among the voices \(unknown voice "zz_nobody" in the blend "af_hi\+zz_nobody"\): af_alloy/,
      );
    } finally {
      await refused.close();
    }
  });
});
