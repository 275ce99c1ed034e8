// Pronunciation control end to end, over loopback HTTP and WebSocket on the stand-in model: a
// lexicon entry, an inline phoneme and an SSML <phoneme> change both what POST /v1/phonemize
// answers and the tokens the model is run with; <break> is exact silence in the audio (24 kHz and
// 8 kHz) and in the word times; bad markup is a clear 400 or an utterance error.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  AudioEndMessage,
  ErrorMessage,
  PhonemizeResponse,
  ReadyMessage,
  WordsMessage,
} from '@kokoro-speech/protocol';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import type { Engine, PreparedPiece } from '../engine/types.ts';
import { aroundRuns } from '../testing/around-runs.ts';
import { postJson, postSpeech } from '../testing/fixture-server.ts';
import { kokoroVocab } from '../fixture/tokenizer.ts';
import { startServer, type RunningServer } from '../index.ts';
import { fixtureModelDir, fixtureSamples, TestClient } from '../testing/test-support.ts';

let model: Awaited<ReturnType<typeof fixtureModelDir>>;
let engine: KokoroEngine;
let server: RunningServer;
let dir: string;
/** Every piece the model was run with, in order. */
const runs: PreparedPiece[] = [];
const vocab = kokoroVocab();
const ids = (phonemes: string) => [...phonemes].map((ch) => vocab[ch]!);

/** The real engine, recording the pieces it is run with (the tokens sent to the model). */
function recording(inner: KokoroEngine): Engine {
  return aroundRuns(inner, (piece, run) => (runs.push(piece), run()));
}

beforeAll(async () => {
  model = await fixtureModelDir();
  dir = await mkdtemp(join(tmpdir(), 'pronunciation-'));
  const lexicon = join(dir, 'lexicon.json');
  await writeFile(
    lexicon,
    JSON.stringify({
      entries: [
        { word: 'Kokoro', phonemes: 'kˈOkəɹO' },
        { word: 'SQL', say: 'sequel', case: 'exact' },
      ],
    }),
  );
  engine = await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 });
  server = await startServer({ engine: recording(engine), config: { lexicon } });
});
afterAll(async () => {
  await server?.close();
  await model?.remove();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => postJson(server, path, body);
async function phonemize(body: object): Promise<PhonemizeResponse> {
  const res = await post('/v1/phonemize', body);
  expect(res.status).toBe(200);
  return (await res.json()) as PhonemizeResponse;
}
/** The tokens of the model runs of one POST /invocations. */
async function modelTokens(body: object): Promise<number[][]> {
  runs.length = 0;
  const res = await post('/invocations', { format: 'pcm_s16le', ...body });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return runs.map((p) => p.tokenIds);
}
/** The G2P's own phonemes for a text, with no lexicon (the engine alone). */
const g2p = async (text: string) => (await engine.prepare(text, 'af_heart')).map((p) => p.phonemes).join(' ');

describe('each way of fixing a pronunciation changes the phonemes and the tokens the model gets', () => {
  test('a lexicon entry (case-insensitive, whole words)', async () => {
    expect(await g2p('Kokoro')).not.toContain('kˈOkəɹO');
    const answer = await phonemize({ text: 'kokoro' });
    expect(answer.phonemes).toBe('kˈOkəɹO');
    expect(answer.tokens).toEqual(ids('kˈOkəɹO'));
    expect(await modelTokens({ text: 'kokoro' })).toEqual([ids('kˈOkəɹO')]);
    // Inside a longer word it does not apply.
    expect((await phonemize({ text: 'Kokorology' })).phonemes).not.toContain('kˈOkəɹO');
  });

  test('a respelling: the entry says "sequel" for exactly "SQL"', async () => {
    expect((await phonemize({ text: 'SQL' })).phonemes).toBe(await g2p('sequel'));
    expect((await phonemize({ text: 'sql' })).phonemes).not.toBe(await g2p('sequel'));
  });

  test("misaki's inline syntax", async () => {
    const text = 'I say [tomato](/təmˈɑːtO/) today.';
    const plain = await g2p('I say tomato today.');
    const answer = await phonemize({ text });
    expect(answer.phonemes).toBe(`${(await g2p('I say')).trim()} təmˈɑːtO ${await g2p('today.')}`);
    expect(answer.phonemes).not.toBe(plain);
    expect(answer.tokens).toEqual(ids(answer.phonemes));
    expect(await modelTokens({ text })).toEqual([ids(answer.phonemes)]);
  });

  test('a fixed word with a full stop inside is one word, spoken once, whatever the sentence rules say', async () => {
    const answer = await phonemize({ text: '[Dr. Kokoro](/dˈɑktəɹ kˈOkəɹO/) arrived. Then he left.' });
    expect(answer.phonemes).toBe(`dˈɑktəɹ kˈOkəɹO ${await g2p('arrived.')} ${await g2p('Then he left.')}`);
  });

  test('an SSML <phoneme>, on the route and over protocol v1', async () => {
    const text = '<speak>I say <phoneme alphabet="ipa" ph="təmˈɑːtO">tomato</phoneme> today.</speak>';
    const answer = await phonemize({ text, ssml: true });
    expect(answer.phonemes).toContain(' təmˈɑːtO ');
    expect(answer.phonemes).toBe((await phonemize({ text: 'I say [tomato](/təmˈɑːtO/) today.' })).phonemes);
    runs.length = 0;
    const c = await TestClient.connect(server.wsUrl);
    expect((c.messages[0] as ReadyMessage).ssml).toBe(true);
    c.send({ type: 'text', text, id: 's', ssml: true });
    c.send({ type: 'end' });
    await c.next((m) => m.type === 'done');
    await c.close();
    expect(runs.map((p) => p.tokenIds)).toEqual([ids(answer.phonemes)]);
  });
});

/** 16-bit samples of a body. */
const samplesOf = (bytes: ArrayBuffer) => new Int16Array(bytes);
const allZero = (s: Int16Array, from: number, count: number) => s.subarray(from, from + count).every((v) => v === 0);

describe('pauses', () => {
  test('<break time="700ms"/> is exactly 700 ms of zero samples between the words, at 24 kHz and 8 kHz', async () => {
    const text = '<speak>One <break time="700ms"/>two</speak>';
    for (const rate of [24000, 8000] as const) {
      runs.length = 0;
      const res = await post('/invocations', { text, ssml: true, format: 'pcm_s16le', sample_rate: rate });
      expect(res.status).toBe(200);
      const s = samplesOf(await res.arrayBuffer());
      const [a, b] = runs.map((p) => fixtureSamples(p.tokenIds.length));
      expect(runs).toHaveLength(2);
      // At 8 kHz each stretch of speech is resampled on its own (24000 / 8000 = 3), the pause made at 8 kHz.
      const first = rate === 24000 ? a! : Math.ceil(a! / 3);
      const second = rate === 24000 ? b! : Math.ceil(b! / 3);
      const pause = (700 * rate) / 1000;
      expect(s.length).toBe(first + pause + second);
      expect(allZero(s, first, pause)).toBe(true);
      // Speech on both sides: the pause is the silence, not the tone's quiet edges.
      expect(s.subarray(first - 40, first).some((v) => v !== 0)).toBe(true);
      expect(s.subarray(first + pause, first + pause + 40).some((v) => v !== 0)).toBe(true);
    }
  });

  test('counted in audio_end, and the words after it start later by the pause', async () => {
    const text = '<speak>One <break time="700ms"/>two</speak>';
    const said = async (t: string, ssml: boolean) => {
      const c = await TestClient.connect(server.wsUrl);
      c.send({ type: 'config', words: true });
      c.send({ type: 'text', text: t, id: 'p', ssml });
      c.send({ type: 'end' });
      await c.next((m) => m.type === 'done');
      await c.close();
      const words = c.messages.filter((m): m is WordsMessage => m.type === 'words').flatMap((m) => m.words);
      return { words, end: c.messages.find((m): m is AudioEndMessage => m.type === 'audio_end')! };
    };
    const plain = await said('One two', false);
    runs.length = 0;
    const paused = await said(text, true);
    const speech = runs.reduce((n, p) => n + fixtureSamples(p.tokenIds.length), 0);
    expect(paused.end.samples).toBe(speech + 16800);
    expect(paused.end.duration_ms).toBeCloseTo(((speech + 16800) / 24000) * 1000, 0);
    expect(paused.words.map((w) => w.text)).toEqual(['One', 'two']);
    // Offsets into the text as sent (the SSML).
    expect(paused.words.map((w) => text.slice(w.start, w.end))).toEqual(['One', 'two']);
    const [one, two] = paused.words;
    expect(one!.start_ms).toBe(plain.words[0]!.start_ms);
    expect(two!.start_ms).toBeGreaterThanOrEqual(one!.end_ms + 700);
  });

  test("<prosody rate> runs its text at that factor of the request's speed", async () => {
    runs.length = 0;
    const text = '<speak>Hello <prosody rate="x-slow">there</prosody></speak>';
    const res = await post('/invocations', { text, ssml: true, format: 'pcm_s16le', speed: 1.5 });
    const s = samplesOf(await res.arrayBuffer());
    const [a, b] = runs;
    expect([a!.rate, b!.rate]).toEqual([undefined, 0.5]);
    expect(s.length).toBe(fixtureSamples(a!.tokenIds.length, 1.5) + fixtureSamples(b!.tokenIds.length, 0.75));
  });

  test('a break over 10 s is cut to 10 s', async () => {
    const answer = await phonemize({ text: '<speak>Wait <break time="20s"/>done</speak>', ssml: true });
    expect(answer.pieces.map((p) => p.pause_ms ?? null)).toEqual([null, 10_000, null]);
    runs.length = 0;
    const res = await post('/invocations', {
      text: '<speak>Wait <break time="20s"/>done</speak>',
      ssml: true,
      format: 'pcm_s16le',
      sample_rate: 8000,
    });
    const s = samplesOf(await res.arrayBuffer());
    const [a, b] = runs.map((p) => Math.ceil(fixtureSamples(p.tokenIds.length) / 3));
    expect(s.length).toBe(a! + 80_000 + b!);
    expect(allZero(s, a!, 80_000)).toBe(true);
  });

  test('the OpenAI route reads an input whose root is <speak> as SSML', async () => {
    runs.length = 0;
    const res = await postSpeech(server, {
      response_format: 'pcm',
      input: '<speak>Hi <break time="500ms"/>there</speak>',
    });
    expect(res.status).toBe(200);
    const s = samplesOf(await res.arrayBuffer());
    const [a, b] = runs.map((p) => fixtureSamples(p.tokenIds.length));
    expect(s.length).toBe(a! + 12_000 + b!);
    expect(allZero(s, a!, 12_000)).toBe(true);
  });
});

describe('bad markup', () => {
  const refused = async (path: string, body: object) => {
    const res = await post(path, body);
    return {
      status: res.status,
      body: (await res.json()) as { error: { code?: string; message: string; param?: string } },
    };
  };

  test('malformed SSML: 400 naming the position', async () => {
    const r = await refused('/invocations', { text: '<speak>\nOne <break time="1s">two</speak>', ssml: true });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_message');
    expect(r.body.error.message).toMatch(/^SSML is not well-formed at line 2, column \d+: /);
  });

  test('an unsupported element: 400 naming it, on POST /invocations, the OpenAI route and the phonemes route', async () => {
    const text = '<speak>Say it <emphasis>loud</emphasis></speak>';
    const a = await refused('/invocations', { text, ssml: true });
    expect([a.status, a.body.error.code]).toEqual([400, 'invalid_message']);
    expect(a.body.error.message).toContain('the element <emphasis> is not supported');
    const b = await refused('/v1/audio/speech', { model: 'kokoro', voice: 'af_heart', input: text });
    expect([b.status, b.body.error.param]).toEqual([400, 'input']);
    expect(b.body.error.message).toContain('<emphasis>');
    const c = await refused('/v1/phonemize', { text, ssml: true });
    expect(c.status).toBe(400);
    expect(c.body.error.message).toContain('<emphasis>');
  });

  test('inline phonemes with an unknown symbol: an utterance error naming it; the session goes on', async () => {
    const c = await TestClient.connect(server.wsUrl);
    c.send({ type: 'text', text: 'Hi [there](/ðɛ☃/).', id: 'bad' });
    c.send({ type: 'text', text: 'Fine.', id: 'good' });
    c.send({ type: 'end' });
    await c.next((m) => m.type === 'done');
    await c.close();
    const error = c.messages.find((m): m is ErrorMessage => m.type === 'error')!;
    expect(error).toMatchObject({ id: 'bad', code: 'invalid_message' });
    expect(error.message).toContain('"☃" (U+2603)');
    expect(c.messages.filter((m) => m.type === 'audio_end').map((m) => (m as AudioEndMessage).id)).toEqual(['good']);
    const r = await refused('/v1/phonemize', { text: '[x](/☃/)' });
    expect(r.status).toBe(400);
  });

  test('the phonemes route takes a voice blend as every route does, and names an unknown voice in one', async () => {
    const answer = await phonemize({ text: 'kokoro', voice: 'af_heart(2)+af_bella(1)' });
    expect(answer.voice).toBe('af_heart(2)+af_bella(1)');
    expect(answer.phonemes).toBe((await phonemize({ text: 'kokoro', voice: 'af_heart' })).phonemes);
    const r = await refused('/v1/phonemize', { text: 'kokoro', voice: 'af_heart+af_nobody' });
    expect([r.status, r.body.error.code]).toEqual([400, 'unknown_voice']);
    expect(r.body.error.message).toContain('af_nobody');
  });

  test('text without ssml: true is not read as SSML', async () => {
    const answer = await phonemize({ text: 'a <break time="1s"/> b' });
    expect(answer.pieces.some((p) => p.pause_ms !== undefined)).toBe(false);
  });
});

describe('the phonemes route', () => {
  test('language instead of voice, pieces with their text, and clear refusals', async () => {
    const answer = await phonemize({ text: 'Hola.', language: 'e' });
    expect(answer.language).toBe('es');
    expect(answer.voice).toBeUndefined();
    expect(answer.pieces).toEqual([{ text: 'Hola.', phonemes: answer.phonemes, tokens: answer.tokens }]);
    expect((await post('/v1/phonemize', { text: 'x', language: 'q' })).status).toBe(400);
    expect((await post('/v1/phonemize', { text: 'x', voice: 'nobody' })).status).toBe(400);
    expect((await post('/v1/phonemize', { text: '' })).status).toBe(400);
    expect((await fetch(`${server.url}/v1/phonemize`)).status).toBe(400);
  });
});
