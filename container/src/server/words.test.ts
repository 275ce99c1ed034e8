// Word timings over protocol v1 (opt-in with config `words: true`), on the stand-in model with a
// durations output (exact by construction) and without one (estimated, and said so).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AudioEndMessage, ReadyMessage, WordsMessage } from '@kokoro-speech/protocol';
import { FRAME_SAMPLES, standInFrames, writeFixtureModel } from '../fixture/index.ts';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import { startServer, type RunningServer } from '../index.ts';
import { TestClient } from '../testing/test-support.ts';

const TEXT = 'Out of the box, it speaks 25 words a second. Then it stops, of course.';

interface Setup {
  dir: string;
  engine: KokoroEngine;
  server: RunningServer;
}
const setups: Record<'timed' | 'plain', Setup> = {} as never;
const clients: TestClient[] = [];

beforeAll(async () => {
  for (const kind of ['timed', 'plain'] as const) {
    const dir = await mkdtemp(join(tmpdir(), `kokoro-words-${kind}-`));
    await writeFixtureModel(dir, { durations: kind === 'timed' });
    const engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
    setups[kind] = { dir, engine, server: await startServer({ engine }) };
  }
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  for (const s of Object.values(setups)) {
    await s.server.close();
    await rm(s.dir, { recursive: true, force: true });
  }
});

async function speak(kind: 'timed' | 'plain', config: object, text = TEXT): Promise<TestClient> {
  const c = await TestClient.connect(setups[kind].server.wsUrl);
  clients.push(c);
  c.send({ type: 'config', ...config });
  c.send({ type: 'text', text, id: 'w' });
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done');
  return c;
}

const wordsOf = (c: TestClient) => c.messages.filter((m): m is WordsMessage => m.type === 'words');

describe('words messages', () => {
  test('ready says where word times come from', async () => {
    for (const [kind, source] of [
      ['timed', 'model'],
      ['plain', 'estimate'],
    ] as const) {
      const c = await TestClient.connect(setups[kind].server.wsUrl);
      clients.push(c);
      expect((c.messages[0] as ReadyMessage).word_timings).toBe(source);
      expect((c.messages[0] as ReadyMessage).voice_info!.find((v) => v.id === 'af_heart')?.name).toBe('Heart');
    }
  });

  test('not sent unless asked for', async () => {
    expect(wordsOf(await speak('timed', {}))).toEqual([]);
  });

  test('exact with a durations output: each piece after its audio, every word once, in order, on the utterance clock', async () => {
    for (const speed of [1, 0.75]) {
      const c = await speak('timed', { words: true, speed });
      const messages = wordsOf(c);
      const end = c.messages.find((m): m is AudioEndMessage => m.type === 'audio_end')!;
      expect(messages.every((m) => m.id === 'w' && !m.estimated)).toBe(true);
      // After the piece's audio, before audio_end.
      const kinds = c.frames.map((f) => (f.kind === 'audio' ? 'audio' : f.message.type));
      expect(kinds.indexOf('words')).toBeGreaterThan(kinds.indexOf('audio'));
      expect(kinds.lastIndexOf('words')).toBeLessThan(kinds.indexOf('audio_end'));

      const words = messages.flatMap((m) => m.words);
      expect(words.map((w) => w.text)).toEqual(TEXT.split(' '));
      for (const w of words) expect(TEXT.slice(w.start, w.end)).toBe(w.text);
      // What the stand-in computes, piece after piece: frames per token x FRAME_SAMPLES.
      const pieces = await setups.timed.engine.prepare(TEXT, 'af_heart');
      expect(messages.length).toBe(pieces.length);
      let before = 0;
      const expected = pieces.flatMap((p) => {
        const frames = [0, ...p.tokenIds, 0].map((id) => standInFrames(id, speed));
        const at = (token: number) =>
          Math.round(((before + frames.slice(0, token + 1).reduce((s, f) => s + f, 0) * FRAME_SAMPLES) / 24000) * 1e5) /
          100;
        const out = p.words!.map((w) => [at(w.tokenStart), at(w.tokenEnd)]);
        before += frames.reduce((s, f) => s + f, 0) * FRAME_SAMPLES;
        return out;
      });
      expect(words.map((w) => [w.start_ms, w.end_ms])).toEqual(expected);
      expect(Math.round((before / 24000) * 1e5) / 100).toBeCloseTo(end.duration_ms, 1);
      for (let i = 1; i < words.length; i++) expect(words[i]!.start_ms).toBeGreaterThanOrEqual(words[i - 1]!.end_ms);
    }
  });

  test('estimated without one, within the audio; the same times at another output rate', async () => {
    const c = await speak('plain', { words: true });
    const messages = wordsOf(c);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((m) => m.estimated)).toBe(true);
    const words = messages.flatMap((m) => m.words);
    expect(words.map((w) => w.text)).toEqual(TEXT.split(' '));
    const end = c.messages.find((m): m is AudioEndMessage => m.type === 'audio_end')!;
    for (const w of words) {
      expect(w.end_ms).toBeGreaterThan(w.start_ms);
      expect(w.end_ms).toBeLessThanOrEqual(end.duration_ms + 0.01);
    }
    const at8k = wordsOf(await speak('plain', { words: true, format: 'mulaw' })).flatMap((m) => m.words);
    expect(at8k).toEqual(words);
  });
});
