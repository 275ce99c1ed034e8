import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FRAME_SAMPLES, SAMPLES_PER_TOKEN, standInFrames, writeFixtureModel } from '../fixture/index.ts';
import { loadKokoroEngine, MAX_PIECE_TOKENS, type KokoroEngine } from './index.ts';
import { pieceWordTimings } from './word-timings.ts';

let dir: string;
let engine: KokoroEngine;
const stages: string[] = [];
const warnings: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-engine-'));
  await writeFixtureModel(dir);
  // A voice of our own under <model dir>/voices, as a user would add one.
  const bundled = join(dirname(fileURLToPath(import.meta.resolve('kokoro-js'))), '..', 'voices');
  await mkdir(join(dir, 'voices'));
  await copyFile(join(bundled, 'af_heart.bin'), join(dir, 'voices', 'zz_custom.bin'));
  await writeFile(join(dir, 'voices', 'zz_broken.bin'), new Uint8Array(1000));
  engine = await loadKokoroEngine({
    modelDir: dir,
    prepWorkers: 1,
    onStage: (s) => stages.push(s),
    onWarning: (m) => warnings.push(m),
  });
});

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

const expectedSamples = (tokens: number, speed: number): number =>
  Math.floor(((tokens + 2) * SAMPLES_PER_TOKEN) / speed);

describe('loadKokoroEngine on the stand-in model', () => {
  test('reports its start-up stages and voices', () => {
    expect(stages).toEqual(['load_model', 'load_voices', 'start_prep_workers']);
    expect(engine.sampleRate).toBe(24000);
    expect(engine.voices).toContain('af_heart');
    expect(engine.voices).toContain('bf_emma');
    expect(engine.voices).toContain('zz_custom');
    expect(engine.hasVoice('zz_custom')).toBe(true);
    expect(engine.hasVoice('nope')).toBe(false);
  });

  test('prepares text with kokoro-js phonemes and Kokoro token ids', async () => {
    const pieces = await engine.prepare('Hello there. How are you today?', 'af_heart');
    expect(pieces.map((p) => p.text)).toEqual(['Hello there.', 'How are you today?']);
    for (const piece of pieces) {
      expect(piece.phonemes).toMatch(/[ˈəɹ]/); // espeak-ng IPA, not the input letters
      expect(piece.tokenIds.length).toBeGreaterThan(5);
      expect(piece.tokenIds).not.toContain(0); // pads are added by synthesize
    }
  });

  test('synthesises audio whose length follows the token count and speed', async () => {
    const [piece] = await engine.prepare('The quick brown fox jumps over the lazy dog.', 'af_heart');
    const n = piece!.tokenIds.length;
    const normal = await engine.synthesize(piece!, 'af_heart', 1);
    const fast = await engine.synthesize(piece!, 'af_heart', 2);
    expect(normal).toBeInstanceOf(Float32Array);
    expect(normal.length).toBe(expectedSamples(n, 1));
    expect(fast.length).toBe(expectedSamples(n, 2));
    expect(Math.max(...normal.map(Math.abs))).toBeGreaterThan(0.05);
  });

  test('uses a voice file from the model folder, and names a broken one', async () => {
    const [piece] = await engine.prepare('Custom voice.', 'zz_custom');
    expect((await engine.synthesize(piece!, 'zz_custom', 1)).length).toBe(expectedSamples(piece!.tokenIds.length, 1));
    await expect(engine.synthesize(piece!, 'zz_broken', 1)).rejects.toThrow(/zz_broken\.bin has 1000 bytes/);
    await expect(engine.synthesize(piece!, 'nope', 1)).rejects.toThrow(/unknown voice "nope"/);
  });

  test('splits text that would overflow the model instead of truncating it', async () => {
    const clause = 'the pipeline streams every sentence to the endpoint as soon as it is complete';
    const long = `${Array.from({ length: 12 }, () => clause).join(', ')}.`;
    const pieces = await engine.prepare(long, 'af_heart');
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.tokenIds.length).toBeLessThanOrEqual(MAX_PIECE_TOKENS);
    // Nothing dropped: every word is in some piece, in order.
    expect(
      pieces
        .map((p) => p.text)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(long);
  });

  test('British voices phonemise as en-gb', async () => {
    const [us] = await engine.prepare('tomato', 'af_heart');
    const [gb] = await engine.prepare('tomato', 'bf_emma');
    expect(us!.phonemes).not.toBe(gb!.phonemes);
  });

  test('text with nothing to speak prepares to no pieces', async () => {
    expect(await engine.prepare('   ', 'af_heart')).toEqual([]);
  });

  test('warms up', async () => {
    await expect(engine.warmUp()).resolves.toBeUndefined();
  });
});

test('a folder without the model names what is missing', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'kokoro-empty-'));
  try {
    await expect(loadKokoroEngine({ modelDir: empty, dtype: 'q8' })).rejects.toThrow(
      /missing config\.json, tokenizer\.json, tokenizer_config\.json, onnx\/model_quantized\.onnx/,
    );
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
});

test('close waits for model runs in flight, then refuses new ones', async () => {
  // A second engine on the suite's model folder (engines only read it).
  const e = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
  const [piece] = await e.prepare('One more sentence before closing.', 'af_heart');
  const runs = [1, 1.5, 2].map((speed) => e.synthesize(piece!, 'af_heart', speed));
  await e.close();
  const lengths = (await Promise.all(runs)).map((a) => a.length);
  expect(lengths).toEqual([1, 1.5, 2].map((speed) => expectedSamples(piece!.tokenIds.length, speed)));
  await expect(e.synthesize(piece!, 'af_heart', 1)).rejects.toThrow(/closed/);
  await expect(e.close()).resolves.toBeUndefined();
});

test('engines can be closed and loaded again in one process (prep workers never load the native runtime)', async () => {
  // Before prep workers stubbed onnxruntime-node, terminating them corrupted the heap and a later
  // model run or the exit aborted the process, usually within three rounds.
  for (let round = 0; round < 5; round++) {
    const e = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
    const [piece] = await e.prepare(`Round ${round} of loading and closing.`, 'af_heart');
    for (let i = 0; i < 10; i++) await e.synthesize(piece!, 'af_heart', 1);
    await e.close();
  }
}, 60_000);

describe('word timings', () => {
  test('the stand-in without durations: words mapped to tokens, times estimated', async () => {
    expect(engine.wordTimings).toBe('estimate');
    expect(engine.durationsOutput).toBeNull();
    const text = 'Out of the box, it has 25 voices.';
    const [piece] = await engine.prepare(text, 'af_heart');
    expect(piece!.offset).toBe(0);
    expect(piece!.words!.map((w) => text.slice(w.start, w.end))).toEqual([
      'Out',
      'of',
      'the',
      'box,',
      'it',
      'has',
      '25',
      'voices.',
    ]);
    const { audio, frames } = await engine.synthesizeTimed(piece!, 'af_heart', 1);
    expect(frames).toBeNull();
    expect(audio.length).toBe(expectedSamples(piece!.tokenIds.length, 1));
  });

  test('with a durations output: frames per token as the model computed them, samples per frame derived', async () => {
    const timedDir = await mkdtemp(join(tmpdir(), 'kokoro-engine-timed-'));
    await writeFixtureModel(timedDir, { durations: true });
    const e = await loadKokoroEngine({ modelDir: timedDir, prepWorkers: 1 });
    try {
      expect(e.wordTimings).toBe('model');
      expect(e.durationsOutput).toBe('durations');
      const text = 'First part. Then the second one, of the two.';
      const pieces = await e.prepare(text, 'af_heart');
      expect(pieces.map((p) => text.slice(p.offset!, p.offset! + p.text.length))).toEqual(pieces.map((p) => p.text));
      for (const speed of [1, 0.8, 1.7]) {
        for (const piece of pieces) {
          const { audio, frames } = await e.synthesizeTimed(piece, 'af_heart', speed);
          const expected = [0, ...piece.tokenIds, 0].map((id) => standInFrames(id, speed));
          expect(frames).toEqual(expected);
          expect(audio.length).toBe(expected.reduce((s, f) => s + f, 0) * FRAME_SAMPLES);
          const t = pieceWordTimings(piece.words!, piece.tokenIds.length, audio.length, frames);
          expect(t.estimated).toBe(false);
          const before = (token: number) => expected.slice(0, token + 1).reduce((s, f) => s + f, 0) * FRAME_SAMPLES;
          expect(t.words.map((w) => [w.startSample, w.endSample])).toEqual(
            piece.words!.map((w) => [before(w.tokenStart), before(w.tokenEnd)]),
          );
        }
      }
    } finally {
      await e.close();
      await rm(timedDir, { recursive: true, force: true });
    }
  });

  test('voice list: kokoro-js metadata for its voices, model-folder voices by id; a wrong-size file is refused', () => {
    const heart = engine.voiceInfo.find((v) => v.id === 'af_heart');
    expect(heart).toMatchObject({ name: 'Heart', language: 'en-us', gender: 'Female', source: 'kokoro-js' });
    expect(heart!.overall_grade).toMatch(/^[A-F][+-]?$/);
    expect(engine.voiceInfo.find((v) => v.id === 'zz_custom')).toEqual({
      id: 'zz_custom',
      language: 'en-us',
      source: 'model-dir',
    });
    expect(engine.voices).not.toContain('zz_broken');
    expect(engine.voiceInfo.map((v) => v.id)).not.toContain('zz_broken');
    expect(engine.refusedVoices).toEqual([
      {
        id: 'zz_broken',
        file: join(dir, 'voices', 'zz_broken.bin'),
        reason: expect.stringMatching(/1000 bytes, expected 522240/),
      },
    ]);
    expect(warnings).toEqual([expect.stringMatching(/voice refused: voice file .*zz_broken\.bin has 1000 bytes/)]);
  });
});
