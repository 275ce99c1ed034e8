// Every language over protocol v1 on the stand-in: an utterance in a voice's language speaks with
// word timings; one in a refused language fails alone, with its code, and the session goes on.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ErrorMessage, WordsMessage } from '@kokoro-speech/protocol';
import { writeFixtureModel } from '../fixture/index.ts';
import { loadKokoroEngine } from '../engine/index.ts';
import { startServer, type RunningServer } from '../index.ts';
import { TestClient } from '../testing/test-support.ts';

let dir: string;
let server: RunningServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-languages-ws-'));
  await writeFixtureModel(dir, { durations: true });
  server = await startServer({ engine: await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 }) });
});

afterAll(async () => {
  for (const c of clients) c.ws.terminate();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

test('a Japanese utterance fails with unsupported_language; the Spanish one after it speaks, with words', async () => {
  const c = await TestClient.connect(server.wsUrl);
  clients.push(c);
  c.send({ type: 'config', voice: 'jf_alpha', words: true });
  c.send({ type: 'text', text: 'こんにちは。', id: 'ja' });
  const error = (await c.next((m) => m.type === 'error')) as ErrorMessage;
  expect(error).toMatchObject({ id: 'ja', code: 'unsupported_language', message: expect.stringMatching(/Japanese/) });
  c.send({ type: 'config', voice: 'ef_dora', words: true });
  c.send({ type: 'text', text: 'Buenos días, ¿cómo está usted?', id: 'es' });
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done');
  const words = c.messages.filter((m): m is WordsMessage => m.type === 'words').flatMap((m) => m.words);
  expect(words.map((w) => w.text)).toEqual(['Buenos', 'días,', '¿cómo', 'está', 'usted?']);
  expect(c.frames.some((f) => f.kind === 'audio')).toBe(true);
});

test('the OpenAI voice list gives each voice its language and gender', async () => {
  const body = (await (await fetch(`${server.url}/v1/audio/voices`)).json()) as { voices: Record<string, unknown>[] };
  const voices = JSON.stringify(body);
  for (const id of ['ef_dora', 'ff_siwis', 'hm_psi', 'im_nicola', 'pm_alex', 'jf_alpha', 'zm_yunxi']) {
    expect(voices).toContain(`"${id}"`);
  }
  expect(voices).toMatch(/"id":"hm_psi"[^}]*"language":"hi"[^}]*"gender":"Male"/);
});
