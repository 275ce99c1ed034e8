// The routes other Kokoro servers' clients call, driven by those clients' own code where it exists:
// the official `openai` client in both stream formats (its SSE events read with the client's own
// event-stream decoder, as LiveKit's Python adapter reads them: deltas, then one done), G.711 from
// every route checked by a decoder written here from the Recommendation's tables, Kokoro-FastAPI's
// request extensions. Its captioned speech: captioned-speech.test.ts.
import { beforeAll, describe, expect, test } from '@jest/globals';
import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import type { KokoroEngine } from '../engine/index.ts';
import type { Engine } from '../engine/types.ts';
import { aroundRuns } from '../testing/around-runs.ts';
import { postJson, postSpeech, speechBytes, suiteServer } from '../testing/fixture-server.ts';

const INPUT = 'Hello from Kokoro, streamed as events. Afterwards a second sentence follows the first one.';

/** Set: model runs of a piece starting "Afterwards" fail (a failure after the first audio). */
let failSecond = false;

function failing(real: KokoroEngine): Engine {
  return aroundRuns(real, async (piece, run) => {
    if (failSecond && piece.text.startsWith('Afterwards')) throw new Error('the model broke on the second sentence');
    return run();
  });
}

const fixture = suiteServer(() => ({ wrap: failing }));
let client: OpenAI;
beforeAll(() => {
  client = new OpenAI({ baseURL: `${fixture.server.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
});

const post = (path: string, body: unknown) => postJson(fixture.server, path, body);

const bytesOf = (body: Record<string, unknown>) => speechBytes(fixture.server, { input: INPUT, ...body });

type SpeechEvent =
  | { type: 'speech.audio.delta'; audio: string }
  | { type: 'speech.audio.done'; usage: { input_tokens: number; output_tokens: number; total_tokens: number } };

/** The official client's SSE mode: its Response read by the client's own event-stream decoder. */
async function sseSpeech(params: Partial<OpenAI.Audio.SpeechCreateParams> = {}) {
  const response = await client.audio.speech.create({
    model: 'kokoro',
    voice: 'af_heart',
    input: INPUT,
    response_format: 'pcm',
    stream_format: 'sse',
    ...params,
  });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const events: SpeechEvent[] = [];
  let error: unknown = null;
  try {
    for await (const e of Stream.fromSSEResponse<SpeechEvent>(response, new AbortController())) events.push(e);
  } catch (e) {
    error = e;
  }
  const audio = Buffer.concat(
    events.flatMap((e) => (e.type === 'speech.audio.delta' ? [Buffer.from(e.audio, 'base64')] : [])),
  );
  return { response, events, audio, error };
}

describe('stream_format "sse" with the official openai client', () => {
  test('deltas carry the same audio as stream_format "audio" (same duration), then one done with usage', async () => {
    const pcm = Buffer.from(
      await (
        await client.audio.speech.create({ model: 'kokoro', voice: 'af_heart', input: INPUT, response_format: 'pcm' })
      ).arrayBuffer(),
    );
    const { response, events, audio, error } = await sseSpeech();
    expect(error).toBeNull();
    expect(response.headers.get('x-audio-media-type')).toMatch(/^audio\/pcm/);
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThanOrEqual(2); // one per piece, as each is made
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: INPUT.length, output_tokens: 0, total_tokens: INPUT.length },
    });
    expect(events.filter((e) => e.type === 'speech.audio.done')).toHaveLength(1);
    expect(pcm.length).toBeGreaterThan(24000); // over half a second of 24 kHz 16-bit audio
    expect(audio.length / 2 / 24000).toBe(pcm.length / 2 / 24000);
    expect(audio.equals(pcm)).toBe(true);
  });

  test('a compressed format arrives in deltas that join into the same file', async () => {
    const flac = await bytesOf({ response_format: 'flac' });
    const { audio, error } = await sseSpeech({ response_format: 'flac' });
    expect(error).toBeNull();
    expect(audio.subarray(0, 4).toString('ascii')).toBe('fLaC');
    expect(audio.equals(flac)).toBe(true);
  });

  test('a failure after the first delta is an error event, which the client raises', async () => {
    failSecond = true;
    try {
      const { events, error } = await sseSpeech();
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.type === 'speech.audio.delta')).toBe(true);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as Error).message).toMatch(/the model broke on the second sentence/);
    } finally {
      failSecond = false;
    }
  });

  test('an unknown stream_format, and stream: false with sse, are 400s naming the field', async () => {
    for (const [body, param] of [
      [{ stream_format: 'ws' }, 'stream_format'],
      [{ stream_format: 'sse', stream: false }, 'stream'],
    ] as const) {
      const res = await postSpeech(fixture.server, { input: 'Hi.', ...body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
    }
  });
});

// An independent G.711 decoder, from ITU-T G.711's tables (https://www.itu.int/rec/T-REC-G.711):
// a code is a sign bit, a 3-bit segment s and a 4-bit step q. mu-law (Table 2, bits inverted on the
// line) decodes to ((2q + 33) << s) - 33 in 14-bit units; A-law (Table 1, even bits inverted) to
// 2q + 1 in segment 0 and (2q + 33) << (s - 1) above it, in 13-bit units. Scaled here to 16 bits.
function g711Decode(format: 'mulaw' | 'alaw', byte: number): number {
  if (format === 'mulaw') {
    const code = 0xff - byte;
    const s = (code >> 4) & 7;
    const magnitude = (((2 * (code & 15) + 33) << s) - 33) * 4;
    return code & 0x80 ? -magnitude : magnitude;
  }
  const code = byte ^ 0x55;
  const s = (code >> 4) & 7;
  const q = code & 15;
  const magnitude = (s === 0 ? 2 * q + 1 : (2 * q + 33) << (s - 1)) * 8;
  return code & 0x80 ? magnitude : -magnitude;
}

describe('G.711 (8 kHz) on every route that takes a format', () => {
  test('mulaw and alaw decode to the 8 kHz PCM of the same text, within G.711 quantisation', async () => {
    const invoke = async (format: string) => {
      const res = await post('/invocations', { text: INPUT, format, sample_rate: 8000 });
      expect(res.status).toBe(200);
      return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const pcm = (await invoke('pcm_s16le')).bytes;
    const samples = pcm.length / 2;
    expect(samples).toBeGreaterThan(4000);
    for (const [format, type] of [
      ['mulaw', 'audio/PCMU;rate=8000;channels=1'],
      ['alaw', 'audio/PCMA;rate=8000;channels=1'],
    ] as const) {
      const invoked = await invoke(format);
      expect(invoked.type).toBe(type);
      expect(invoked.bytes.length).toBe(samples); // one byte a sample: the same duration
      let worst = 0;
      for (let i = 0; i < samples; i++) {
        const x = pcm.readInt16LE(i * 2);
        // Half the step of x's segment, at most: 1/32 of |x| (A-law above segment 1) or 16 near zero.
        const allowed = Math.max(format === 'mulaw' ? 8 : 16, Math.abs(x) / 16);
        worst = Math.max(worst, Math.abs(g711Decode(format, invoked.bytes[i]!) - x) / allowed);
      }
      expect(worst).toBeLessThanOrEqual(1);
      // The OpenAI route's extension and the SSE deltas give the very same bytes.
      expect((await bytesOf({ response_format: format })).equals(invoked.bytes)).toBe(true);
      const viaClient = await client.audio.speech.create({
        model: 'kokoro',
        voice: 'af_heart',
        input: INPUT,
        response_format: format as never,
      });
      expect(viaClient.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await viaClient.arrayBuffer()).equals(invoked.bytes)).toBe(true);
      expect((await sseSpeech({ response_format: format as never })).audio.equals(invoked.bytes)).toBe(true);
    }
  });

  test('protocol v1 sessions speak alaw, and ready lists it', async () => {
    const c = await fixture.connect();
    try {
      expect(c.messages[0]).toMatchObject({ type: 'ready', formats: ['pcm_s16le', 'wav', 'mulaw', 'alaw'] });
      c.send({ type: 'config', format: 'alaw' });
      c.send({ type: 'text', text: INPUT, id: 'a' });
      c.send({ type: 'end' });
      await c.next((m) => m.type === 'done');
      const res = await post('/invocations', { text: INPUT, format: 'alaw' });
      expect(
        c
          .audioById()
          .get('a')!
          .equals(Buffer.from(await res.arrayBuffer())),
      ).toBe(true);
    } finally {
      await c.close();
    }
    const res = await post('/invocations', { text: 'Hi.', format: 'alaw', sample_rate: 16000 });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/alaw is 8000 Hz only/);
  });
});

describe("Kokoro-FastAPI's request extensions", () => {
  test('stream: false sends the same audio in one body with its length; volume_multiplier scales it', async () => {
    const pcm = await bytesOf({ response_format: 'pcm' });
    const res = await postSpeech(fixture.server, {
      input: INPUT,
      response_format: 'pcm',
      stream: false,
      return_download_link: false,
    });
    expect(res.headers.get('content-length')).toBe(String(pcm.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(pcm)).toBe(true);
    const half = await bytesOf({ response_format: 'pcm', volume_multiplier: 0.5 });
    expect(half.length).toBe(pcm.length);
    let peak = 0;
    let worst = 0;
    for (let i = 0; i < pcm.length; i += 2) {
      const x = pcm.readInt16LE(i);
      peak = Math.max(peak, Math.abs(x));
      worst = Math.max(worst, Math.abs(half.readInt16LE(i) - x / 2));
    }
    expect(peak).toBeGreaterThan(100);
    expect(worst).toBeLessThanOrEqual(0.5);
    // wav keeps its header whole under the gain.
    const wav = await bytesOf({ response_format: 'wav', volume_multiplier: 0.5 });
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.subarray(44).equals(half)).toBe(true);
  });

  test("lang_code reads the text in that language's G2P; its own language changes nothing", async () => {
    const english = await bytesOf({ response_format: 'pcm', input: 'Hola, ¿cómo estás?' });
    const same = await bytesOf({ response_format: 'pcm', input: 'Hola, ¿cómo estás?', lang_code: 'en-us' });
    const spanish = await bytesOf({ response_format: 'pcm', input: 'Hola, ¿cómo estás?', lang_code: 'e' });
    expect(same.equals(english)).toBe(true);
    expect(spanish.equals(english)).toBe(false);
  });

  test('fields that cannot be honoured here are 400s that name them', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ lang_code: 'j' }, 'lang_code', /Japanese cannot be spoken here/],
      [{ lang_code: 'xx' }, 'lang_code', /unknown language "xx"/],
      [{ volume_multiplier: -1 }, 'volume_multiplier', /from 0 to 10/],
      [{ volume_multiplier: 'loud' }, 'volume_multiplier', /from 0 to 10/],
      [{ stream: 'yes' }, 'stream', /true or false/],
      [{ normalization_options: { normalize: false } }, 'normalization_options', /cannot be switched off/],
      [{ return_download_link: true }, 'return_download_link', /no audio files to download/],
      [{ download_format: 'mp3' }, 'download_format', /no audio files to download/],
      [{ return_timestamps: true }, 'return_timestamps', /captioned_speech/],
    ];
    for (const [extra, param, message] of cases) {
      const res = await postSpeech(fixture.server, { input: 'Hi.', ...extra });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { param: string; message: string } };
      expect(error.param).toBe(param);
      expect(error.message).toMatch(message);
    }
  });
});
