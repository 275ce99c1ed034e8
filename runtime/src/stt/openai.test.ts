import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@jest/globals';
import { startFakeTranscriptionServer, type TranscriptionReply } from '../testing/fake-transcription-server.ts';
import { createOpenAISpeechToText } from './openai.ts';
import { STT_SAMPLE_RATE, type SttEvent, type SttStream } from './types.ts';

const sec = (s: number) => Math.round(s * STT_SAMPLE_RATE);
const tone = (length: number) => Int16Array.from({ length }, (_, i) => Math.round(8000 * Math.sin(i / 7)));

async function collect(stream: SttStream): Promise<SttEvent[]> {
  const out: SttEvent[] = [];
  for await (const e of stream.events) out.push(e);
  return out;
}

/** One utterance of `seconds` through a provider at `baseURL`; the events. */
async function oneUtterance(baseURL: string, seconds = 1, options: { timeoutMs?: number; apiKey?: string } = {}) {
  const stt = createOpenAISpeechToText({ baseURL, model: 'whisper-test', ...options });
  const stream = stt.open({ language: 'fr' });
  const done = collect(stream);
  stream.write(tone(sec(0.5)));
  stream.speechStart(sec(0.5));
  stream.write(tone(sec(seconds)));
  stream.speechEnd(sec(0.5 + seconds));
  stream.end();
  return done;
}

async function withServer<T>(script: TranscriptionReply[], run: (baseURL: string) => Promise<T>) {
  const server = await startFakeTranscriptionServer(script);
  try {
    return { result: await run(server.baseURL), requests: server.requests };
  } finally {
    await server.close();
  }
}

test('each utterance goes as a WAV in a multipart request through the official client; its text is the final', async () => {
  const server = await startFakeTranscriptionServer([{ text: ' Bonjour. ' }, { text: 'Merci.' }]);
  try {
    const stt = createOpenAISpeechToText({ baseURL: server.baseURL, model: 'whisper-test', apiKey: 'sk-stt' });
    const stream = stt.open({ language: 'fr' });
    const done = collect(stream);
    stream.speechStart(0);
    stream.write(tone(sec(1)));
    stream.speechEnd(sec(1));
    stream.write(new Int16Array(sec(1)));
    stream.speechStart(sec(2));
    stream.write(tone(sec(0.5)));
    stream.end();
    expect(await done).toEqual([
      { type: 'final', text: 'Bonjour.', endSample: sec(1) },
      { type: 'final', text: 'Merci.', endSample: sec(2.5) },
    ]);
    const [first, second] = server.requests;
    expect(first).toMatchObject({
      model: 'whisper-test',
      language: 'fr',
      responseFormat: 'json',
      authorization: 'Bearer sk-stt',
      fileName: 'utterance.wav',
      sampleRate: 16000,
    });
    expect(Array.from(first!.samples)).toEqual(Array.from(tone(sec(1))));
    expect(second!.samples.length).toBe(sec(0.5));
  } finally {
    await server.close();
  }
});

test.each([
  [429, 'stt_throttled', true],
  [500, 'stt_unavailable', true],
  [503, 'stt_unavailable', true],
  [400, 'stt_refused', false],
  [401, 'stt_refused', false],
])('an HTTP %i becomes %s (retryable %s), named with the URL', async (status, code, retryable) => {
  const { result } = await withServer([{ status, message: 'scripted failure' }], (url) => oneUtterance(url));
  expect(result).toEqual([{ type: 'error', code, retryable, message: expect.stringContaining('scripted failure') }]);
  expect((result[0] as { message: string }).message).toMatch(
    /POST http:\/\/127\.0\.0\.1:\d+\/v1\/audio\/transcriptions answered/,
  );
});

test('a server that never answers: stt_timeout after the request timeout', async () => {
  const { result } = await withServer([{ stall: true }], (url) => oneUtterance(url, 1, { timeoutMs: 300 }));
  expect(result).toEqual([expect.objectContaining({ type: 'error', code: 'stt_timeout', retryable: true })]);
});

test('nothing listening: stt_unavailable naming the refused connection', async () => {
  // A port that was free a moment ago: connections to it are refused.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const result = await oneUtterance(`http://127.0.0.1:${port}/v1`);
  expect(result).toEqual([expect.objectContaining({ type: 'error', code: 'stt_unavailable', retryable: true })]);
  expect((result[0] as { message: string }).message).toMatch(/could not be reached/);
});

test('the stand-in refuses what a real server would: a body without a model', async () => {
  const server = await startFakeTranscriptionServer([{ text: 'x' }]);
  try {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(10)]), 'a.wav');
    const response = await fetch(`${server.baseURL}/audio/transcriptions`, { method: 'POST', body: form });
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/model/);
    form.set('model', 'm');
    const bad = await fetch(`${server.baseURL}/audio/transcriptions`, { method: 'POST', body: form });
    expect(await bad.text()).toMatch(/not a 16-bit mono PCM WAV/);
  } finally {
    await server.close();
  }
});

test('a base URL that is not http(s) is refused when the provider is made', () => {
  expect(() => createOpenAISpeechToText({ baseURL: 'localhost:8000', model: 'm' })).toThrow(/not an http\(s\) URL/);
});
