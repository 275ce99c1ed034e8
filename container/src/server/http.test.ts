// POST /invocations and /ping over real loopback HTTP, on the stand-in model through the real engine.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import { startServer, type RunningServer } from '../index.ts';
import WebSocket from 'ws';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import { fixtureModelDir, fixtureSamples } from '../testing/test-support.ts';

let model: Awaited<ReturnType<typeof fixtureModelDir>>;
let engine: KokoroEngine;
let server: RunningServer;
let releaseEngine: () => void;
let pingBeforeReady: number;
let upgradeBeforeReady: number;

/** HTTP status with which the server answers a WebSocket upgrade at `path` (101 if accepted). */
const upgradeStatus = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`);
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('error', (e) => reject(e));
  });

beforeAll(async () => {
  model = await fixtureModelDir();
  engine = await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 });
  // The server gets the engine only when the test lets it: /ping must say 503 until then.
  const gate = new Promise<KokoroEngine>((resolve) => (releaseEngine = () => resolve(engine)));
  server = await startServer({
    engine: gate,
    waitUntilReady: false,
    config: { maxTextChars: 2000, maxWsMessageBytes: 16384 },
  });
  pingBeforeReady = (await fetch(`${server.url}/ping`)).status;
  upgradeBeforeReady = await upgradeStatus(BIDI_PATH);
  releaseEngine();
  await server.ready;
});

afterAll(async () => {
  await server?.close();
  await model?.remove();
});

const post = (body: unknown) =>
  fetch(`${server.url}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const TEXT = 'Hello there. The quick brown fox jumps over the lazy dog, twice.';

/** Samples at 24 kHz the whole text makes (each piece separately, as the server runs them). */
async function nativeSamples(text: string, speed = 1): Promise<number> {
  const pieces = await engine.prepare(text, 'af_heart');
  return pieces.reduce((n, p) => n + fixtureSamples(p.tokenIds.length, speed), 0);
}

test('/ping is 503 before the model is loaded and warmed up, 200 after', async () => {
  expect(pingBeforeReady).toBe(503);
  const res = await fetch(`${server.url}/ping`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'healthy' });
});

describe('POST /invocations streams audio', () => {
  test.each([
    ['wav', 24000, 24000, 2, 'audio/wav'],
    ['wav', 16000, 16000, 2, 'audio/wav'],
    ['wav', 8000, 8000, 2, 'audio/wav'],
    ['pcm_s16le', 24000, 24000, 2, 'audio/L16;rate=24000;channels=1'],
    ['pcm_s16le', 16000, 16000, 2, 'audio/L16;rate=16000;channels=1'],
    ['pcm_s16le', 8000, 8000, 2, 'audio/L16;rate=8000;channels=1'],
    ['mulaw', undefined, 8000, 1, 'audio/PCMU;rate=8000;channels=1'],
    ['mulaw', 8000, 8000, 1, 'audio/PCMU;rate=8000;channels=1'],
  ] as const)('%s at %s Hz', async (format, requested, rate, width, contentType) => {
    const res = await post({ text: TEXT, format, ...(requested ? { sample_rate: requested } : {}) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect(res.headers.get('x-audio-format')).toBe(format);
    expect(res.headers.get('x-sample-rate')).toBe(String(rate));
    expect(res.headers.get('x-channels')).toBe('1');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const body = Buffer.from(await res.arrayBuffer());
    const samples = Math.ceil(((await nativeSamples(TEXT)) * rate) / 24000);
    const header = format === 'wav' ? 44 : 0;
    expect(body.length).toBe(header + samples * width);
    if (format === 'wav') {
      expect(body.toString('ascii', 0, 4)).toBe('RIFF');
      expect(body.toString('ascii', 8, 12)).toBe('WAVE');
      expect(body.readUInt16LE(20)).toBe(1); // PCM
      expect(body.readUInt16LE(22)).toBe(1); // mono
      expect(body.readUInt32LE(24)).toBe(rate);
      expect(body.readUInt16LE(34)).toBe(16);
      expect(body.toString('ascii', 36, 40)).toBe('data');
    }
  });

  test('wav is the default format, 24 kHz the default rate; speed shortens the audio', async () => {
    const res = await post({ text: TEXT, speed: 2 });
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(44 + (await nativeSamples(TEXT, 2)) * 2);
    expect(body.readUInt32LE(24)).toBe(24000);
  });

  test('text over the model limit is split, not truncated: audio for every piece', async () => {
    const clause = 'the pipeline streams every sentence to the endpoint as soon as it is complete';
    const long = `${Array.from({ length: 12 }, () => clause).join(', ')}.`;
    expect((await engine.prepare(long, 'af_heart')).length).toBeGreaterThan(1);
    const body = Buffer.from(await (await post({ text: long, format: 'pcm_s16le' })).arrayBuffer());
    expect(body.length).toBe((await nativeSamples(long)) * 2);
  });
});

describe('POST /invocations errors', () => {
  const expectError = async (res: Response, status: number, code: string, message: RegExp) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message).toMatch(message);
  };

  test('malformed JSON', async () =>
    expectError(await post('{"text": "hi"'), 400, 'invalid_message', /malformed JSON/));
  test('wrong field types and unknown fields', async () => {
    await expectError(await post({ text: 42 }), 400, 'invalid_message', /text/);
    await expectError(await post({ text: 'hi', speed: 'fast' }), 400, 'invalid_message', /speed/);
    await expectError(await post({ text: 'hi', speed: 3 }), 400, 'invalid_message', /speed/);
    await expectError(await post({ text: 'hi', sample_rate: 44100 }), 400, 'invalid_message', /sample_rate/);
    await expectError(await post({ text: 'hi', colour: 'blue' }), 400, 'invalid_message', /colour/);
    await expectError(await post([1, 2]), 400, 'invalid_message', /invalid request/);
  });
  test('mulaw at another rate', async () =>
    expectError(
      await post({ text: 'hi', format: 'mulaw', sample_rate: 16000 }),
      400,
      'invalid_message',
      /mulaw is 8000 Hz/,
    ));
  test('unknown voice', async () =>
    expectError(await post({ text: 'hi', voice: 'xx_nobody' }), 400, 'unknown_voice', /xx_nobody.*af_heart/));
  test('empty text', async () => {
    await expectError(await post({ text: '' }), 400, 'invalid_message', /empty/);
    await expectError(await post({ text: ' \n ' }), 400, 'invalid_message', /empty/);
  });
  test('oversized text and body', async () => {
    await expectError(
      await post({ text: 'a'.repeat(2001) }),
      413,
      'text_too_long',
      /2001 characters; the limit is 2000/,
    );
    await expectError(await post({ text: 'a'.repeat(20000) }), 413, 'text_too_long', /bytes; the limit is 16384/);
  });
  test('a broken voice file in the model folder is an internal error, and the server carries on', async () => {
    await expectError(
      await post({ text: 'hi there', voice: 'zz_broken' }),
      500,
      'internal',
      /zz_broken\.bin has 1000 bytes/,
    );
    expect((await post({ text: 'hi there' })).status).toBe(200);
  });
  test('unknown routes and methods', async () => {
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/invocations`)).status).toBe(405);
  });
  test('WebSocket upgrades: 503 before the model is ready, 404 on another path, accepted on the stream path', async () => {
    expect(upgradeBeforeReady).toBe(503);
    expect(await upgradeStatus('/ws')).toBe(404);
    expect(await upgradeStatus(BIDI_PATH)).toBe(101);
  });
});
