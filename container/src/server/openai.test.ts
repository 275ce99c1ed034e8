// The OpenAI-compatible speech API against the real server on the stand-in model, called with the
// official `openai` npm client: audio.speech.create streamed, the model and voice lists, and
// OpenAI-shaped 400s for bad requests.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import OpenAI from 'openai';
import type { SpeechCreateParams } from 'openai/resources/audio/speech';
import { OpusScriptDecoder, readOggOpus } from '@kokoro-speech/protocol/audio';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import { startServer, type RunningServer } from '../index.ts';
import { fixtureModelDir, fixtureSamples } from '../testing/test-support.ts';

let model: Awaited<ReturnType<typeof fixtureModelDir>>;
let engine: KokoroEngine;
let server: RunningServer;
let client: OpenAI;

const INPUT = 'Hello from Kokoro. This answer is streamed as it is synthesised, one sentence after another.';

beforeAll(async () => {
  model = await fixtureModelDir();
  engine = await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 });
  server = await startServer({ engine });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
  await model?.remove();
});

async function expectedSamples(text: string, voice = 'af_heart'): Promise<number> {
  const pieces = await engine.prepare(text, voice);
  return pieces.reduce((n, p) => n + fixtureSamples(p.tokenIds.length), 0);
}

/** INPUT in af_heart, as `format`. */
const speakInput = (format: SpeechCreateParams['response_format']) =>
  client.audio.speech.create({ model: 'kokoro', voice: 'af_heart', input: INPUT, response_format: format });

/** Reads a streamed body chunk by chunk. */
async function readAll(response: Response): Promise<{ bytes: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parts.push(Buffer.from(chunk));
  return { bytes: Buffer.concat(parts), chunks: parts.length };
}

describe('POST /v1/audio/speech with the openai client', () => {
  test('a streamed WAV that parses: a streaming header, then exactly the samples Kokoro made', async () => {
    const response = await speakInput('wav');
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('transfer-encoding')).toBe('chunked'); // streamed, not buffered
    const { bytes, chunks } = await readAll(response);
    expect(chunks).toBeGreaterThan(1);
    expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
    expect(bytes.toString('ascii', 8, 16)).toBe('WAVEfmt ');
    expect(bytes.readUInt16LE(20)).toBe(1); // PCM
    expect(bytes.readUInt16LE(22)).toBe(1); // mono
    expect(bytes.readUInt32LE(24)).toBe(24000);
    expect(bytes.readUInt16LE(34)).toBe(16);
    expect(bytes.toString('ascii', 36, 40)).toBe('data');
    expect((bytes.length - 44) / 2).toBe(await expectedSamples(INPUT));
  });

  test('pcm is raw 24 kHz s16le; OpenAI voice and model names work; speed shortens it', async () => {
    const pcm = await readAll(
      await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'Short one.', response_format: 'pcm' }),
    );
    expect(pcm.bytes.length / 2).toBe(await expectedSamples('Short one.', 'af_nova'));
    const fast = await readAll(
      await client.audio.speech.create({
        model: 'tts-1-hd',
        voice: 'af_heart',
        input: 'Short one.',
        response_format: 'pcm',
        speed: 2,
      }),
    );
    expect(fast.bytes.length).toBeLessThan(pcm.bytes.length * 0.6);
  });

  test('opus is an Ogg Opus file whose packets decode to the samples Kokoro made (pre-skip and end trimmed)', async () => {
    const response = await speakInput('opus');
    expect(response.headers.get('content-type')).toBe('audio/ogg; codecs=opus');
    const { bytes } = await readAll(response);
    const ogg = readOggOpus(bytes);
    expect(ogg).toMatchObject({ channels: 1, inputRate: 24000, preSkip: 312 });
    const samples = await expectedSamples(INPUT);
    expect(ogg.lastGranule).toBe(BigInt(samples * 2 + 312));
    const decoder = new OpusScriptDecoder(24000);
    const decoded = ogg.packets.reduce((n, p) => n + decoder.decodeAll(p).length / 2, 0);
    decoder.close();
    expect(decoded).toBeGreaterThanOrEqual(samples + 156);
    expect(decoded - samples - 156).toBeLessThan(480); // at most one frame of padding
  });

  test('bad requests are OpenAI-shaped 400s naming the parameter', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { model: 'kokoro', voice: 'xx_nobody', input: 'Hi.' },
        'voice',
        /unknown voice "xx_nobody"; available: .*af_heart/,
      ],
      [
        { model: 'gpt-9', voice: 'af_heart', input: 'Hi.' },
        'model',
        /model "gpt-9" does not exist here; use one of kokoro, tts-1/,
      ],
      [{ model: 'kokoro', voice: 'af_heart', input: '  ' }, 'input', /input is empty/],
      [
        { model: 'kokoro', voice: 'af_heart', input: 'a'.repeat(4097) },
        'input',
        /4097 characters; the maximum is 4096/,
      ],
      [
        { model: 'kokoro', voice: 'af_heart', input: 'Hi.', response_format: 'aac' },
        'response_format',
        /^400 response_format "aac" is not supported by this server; supported: mp3, opus, flac, wav, pcm, mulaw, alaw$/,
      ],
      [
        { model: 'kokoro', voice: 'af_heart', input: 'Hi.', response_format: 'ogg' },
        'response_format',
        /"ogg" is not a format; supported: mp3, opus, flac, wav, pcm/,
      ],
      [{ model: 'kokoro', voice: 'af_heart', input: 'Hi.', speed: 3 }, 'speed', /Kokoro speaks at 0.5 to 2/],
    ];
    for (const [body, param, message] of cases) {
      const error = await client.audio.speech.create(body as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const e = error as InstanceType<typeof OpenAI.BadRequestError>;
      expect(e.status).toBe(400);
      expect(e.param).toBe(param);
      expect(e.type).toBe('invalid_request_error');
      expect(e.message).toMatch(message);
    }
    // Not JSON at all, and an unknown field: the same shape, without the client's help.
    for (const [body, param, message] of [
      ['{nope', null, /not valid JSON/],
      [
        JSON.stringify({ model: 'kokoro', voice: 'af_heart', input: 'Hi.', loud: true }),
        'loud',
        /loud: Unrecognized key/,
      ],
    ] as const) {
      const res = await fetch(`${server.url}/v1/audio/speech`, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: {
          message: expect.stringMatching(message),
          type: 'invalid_request_error',
          param,
          code: expect.any(String),
        },
      });
    }
  });
});

test('GET /v1/models lists the accepted names; the voice list says what each voice is and which files were refused', async () => {
  const models = await client.models.list();
  expect(models.data.map((m) => m.id)).toEqual(['kokoro', 'tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
  const res = await fetch(`${server.url}/v1/audio/voices`);
  const list = (await res.json()) as {
    voices: { id: string }[];
    default: string;
    refused: { id: string; reason: string }[];
  };
  expect(list.default).toBe('af_heart');
  expect(list.voices.find((v) => v.id === 'af_heart')).toMatchObject({
    name: 'Heart',
    gender: 'Female',
    language: 'en-us',
  });
  expect(list.voices.map((v) => v.id)).not.toContain('zz_broken');
  expect(list.refused).toEqual([
    { id: 'zz_broken', file: expect.stringMatching(/zz_broken\.bin$/), reason: expect.stringMatching(/1000 bytes/) },
  ]);
  expect((await fetch(`${server.url}/v1/models`, { method: 'POST' })).status).toBe(405);
});
