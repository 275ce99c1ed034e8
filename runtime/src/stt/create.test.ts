import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { readAgentEnv, STT_VARIABLES } from '../config/agent-env.ts';
import { sttFromEnv } from './config.ts';
import { createSpeechToText } from './create.ts';
import { createLocalWhisperSpeechToText } from './local-whisper.ts';

const parse = (env: Record<string, string>) => readAgentEnv(env, STT_VARIABLES);

test('STT_PROVIDER picks the provider; each reads its own variables', () => {
  const problems: string[] = [];
  expect(sttFromEnv(parse({ AWS_REGION: 'eu-west-1', STT_PARTIAL_STABILITY: 'high' }), problems)).toEqual({
    provider: 'transcribe',
    region: 'eu-west-1',
    partialStability: 'high',
  });
  expect(
    sttFromEnv(
      parse({
        STT_PROVIDER: 'openai',
        STT_OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
        STT_OPENAI_MODEL: 'whisper-1',
        STT_OPENAI_API_KEY: 'sk-x',
        STT_OPENAI_TIMEOUT_SECONDS: '2.5',
      }),
      problems,
    ),
  ).toEqual({
    provider: 'openai',
    baseURL: 'http://127.0.0.1:8000/v1',
    model: 'whisper-1',
    apiKey: 'sk-x',
    timeoutMs: 2500,
  });
  expect(sttFromEnv(parse({}), problems, { fallback: 'local', offline: true })).toEqual({
    provider: 'local',
    offline: true,
  });
  expect(problems).toEqual([]);
});

test('openai without its URL and model: one problem for each, naming the variables and how it was chosen', () => {
  const problems: string[] = [];
  expect(sttFromEnv(parse({}), problems, { provider: 'openai', given: '--stt openai' })).toBeUndefined();
  expect(problems).toEqual([
    expect.stringMatching(/^--stt openai needs STT_OPENAI_BASE_URL/),
    expect.stringMatching(/^--stt openai needs STT_OPENAI_MODEL/),
  ]);
});

test('bad values are refused by name', () => {
  expect(() => parse({ STT_PROVIDER: 'whisper' })).toThrow(/STT_PROVIDER/);
  expect(() => parse({ STT_OPENAI_BASE_URL: 'localhost:8000' })).toThrow(/STT_OPENAI_BASE_URL/);
  expect(() => parse({ STT_PARTIAL_STABILITY: 'max' })).toThrow(/STT_PARTIAL_STABILITY/);
});

test('createSpeechToText gives each provider behind the one interface', async () => {
  const offline = await createSpeechToText({ provider: 'local', offline: true });
  expect([offline.name, offline.needsVadCuts]).toEqual(['local', true]);
  const openai = await createSpeechToText({ provider: 'openai', baseURL: 'http://127.0.0.1:1/v1', model: 'm' });
  expect([openai.name, openai.needsVadCuts]).toEqual(['openai', true]);
  const transcribe = await createSpeechToText({ provider: 'transcribe', region: 'us-east-1' });
  expect([transcribe.name, transcribe.needsVadCuts]).toEqual(['transcribe', false]);
  for (const stt of [offline, openai, transcribe]) await stt.close();
});

test('the local model, when the Hub cannot be reached: a refusal that names every way out', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const cache = await mkdtemp(join(tmpdir(), 'stt-cache-'));
  try {
    const made = createLocalWhisperSpeechToText({
      env: { HF_ENDPOINT: `http://127.0.0.1:${port}`, XDG_CACHE_HOME: cache },
      attempts: 1,
    });
    await expect(made).rejects.toMatchObject({ code: 'stt_unavailable' });
    await expect(made).rejects.toThrow(/onnx-community\/whisper-base[\s\S]*--offline[\s\S]*STT_LOCAL_MODEL_DIR/);
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
});
