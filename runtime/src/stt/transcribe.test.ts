// The Transcribe provider through the official client, unmodified, against the local Transcribe
// streaming stand-in at the wire (HTTP/2, event stream, SigV4 on the request and on every event),
// pointed at it by the SDK's own AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING.
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY } from '@kokoro-speech/sagemaker/router';
import {
  startFakeTranscribeStreaming,
  type FakeTranscribeOptions,
  type FakeTranscribeStreaming,
} from '../testing/fake-transcribe-streaming.ts';
import { createTranscribeSpeechToText, type TranscribeSttOptions } from './transcribe.ts';
import { STT_SAMPLE_RATE, type SpeechToText, type SttEvent, type SttStream, type SttStreamOptions } from './types.ts';

const VARIABLES = ['AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
beforeAll(() => {
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = LOCAL_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_SECRET_ACCESS_KEY;
});
afterAll(() => {
  for (const [v, value] of Object.entries(saved))
    if (value === undefined) delete process.env[v];
    else process.env[v] = value;
});

let fake: FakeTranscribeStreaming | undefined;
let stt: SpeechToText | undefined;
afterEach(async () => {
  await stt?.close();
  await fake?.close();
  stt = fake = undefined;
});

async function setUp(options: FakeTranscribeOptions, sttOptions: TranscribeSttOptions = {}) {
  fake = await startFakeTranscribeStreaming(options);
  process.env.AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING = fake.url;
  stt = createTranscribeSpeechToText(sttOptions);
  return { fake, stt };
}

async function collect(stream: SttStream): Promise<SttEvent[]> {
  const out: SttEvent[] = [];
  for await (const e of stream.events) out.push(e);
  return out;
}

/** `seconds` of a tone in 20 ms frames, as a microphone sends them, then end(). */
async function speakInto(provider: SpeechToText, seconds: number, options: SttStreamOptions = { language: 'en' }) {
  const stream = provider.open(options);
  const done = collect(stream);
  const frame = STT_SAMPLE_RATE / 50;
  for (let i = 0; i < Math.round(seconds * 50); i++) {
    stream.write(Int16Array.from({ length: frame }, (_, j) => Math.round(6000 * Math.sin((i * frame + j) / 5))));
    // Let the HTTP/2 stream carry it, as real time would.
    if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
  }
  stream.end();
  return done;
}

test('the official client streams through the stand-in: signed audio in, partials with their stable prefix, then finals', async () => {
  const { fake, stt } = await setUp({
    script: () => ({
      steps: [
        { atSeconds: 0.4, partial: 'Hello', stableWords: 0 },
        { atSeconds: 0.8, partial: 'Hello there how', stableWords: 2 },
        { atSeconds: 1.2, final: 'Hello there, how are you?' },
        { atSeconds: 1.8, partial: 'Fine', stableWords: 1 },
        { atSeconds: 2.0, final: 'Fine thanks.' },
      ],
    }),
  });
  const events = await speakInto(stt, 2.2);
  expect(events).toEqual([
    { type: 'partial', text: 'Hello', stable: '', endSample: 0.4 * STT_SAMPLE_RATE },
    { type: 'partial', text: 'Hello there how', stable: 'Hello there', endSample: 0.8 * STT_SAMPLE_RATE },
    { type: 'final', text: 'Hello there, how are you?', endSample: 1.2 * STT_SAMPLE_RATE },
    { type: 'partial', text: 'Fine', stable: 'Fine', endSample: 1.8 * STT_SAMPLE_RATE },
    { type: 'final', text: 'Fine thanks.', endSample: 2.0 * STT_SAMPLE_RATE },
  ]);
  const [record] = fake.streams;
  expect(record!.headers).toMatchObject({
    'x-amzn-transcribe-language-code': 'en-US',
    'x-amzn-transcribe-sample-rate': '16000',
    'x-amzn-transcribe-media-encoding': 'pcm',
    'x-amzn-transcribe-enable-partial-results-stabilization': 'true',
    'x-amzn-transcribe-partial-results-stability': 'medium',
  });
  // Every sample arrived, in signed AudioEvents of at least 50 ms, and the signed end event too.
  expect(record!.audioBytes).toBe(2.2 * STT_SAMPLE_RATE * 2);
  expect(record!.audioEvents).toBeLessThanOrEqual(2.2 * 20);
  expect(record!.ended).toBe(true);
});

test('a British voice asks for en-GB; the other languages their streaming codes', async () => {
  const { fake, stt } = await setUp({ script: () => ({ steps: [{ atSeconds: 0.1, final: 'ok' }] }) });
  await speakInto(stt, 0.2, { language: 'en', voice: 'bf_emma' });
  await speakInto(stt, 0.2, { language: 'pt', voice: 'pf_dora' });
  await speakInto(stt, 0.2, { language: 'hi' });
  expect(fake.streams.map((s) => s.headers['x-amzn-transcribe-language-code'])).toEqual(['en-GB', 'pt-BR', 'hi-IN']);
});

test.each([
  ['LimitExceededException', 'stt_throttled', true],
  ['ServiceUnavailableException', 'stt_unavailable', true],
  ['InternalFailureException', 'stt_unavailable', true],
  ['BadRequestException', 'stt_refused', false],
])('a %s event mid-stream becomes %s (retryable %s) and ends the stream', async (exception, code, retryable) => {
  const { stt } = await setUp({
    script: () => ({
      steps: [
        { atSeconds: 0.2, partial: 'Hello', stableWords: 1 },
        { atSeconds: 0.5, exception, message: `scripted ${exception}` },
      ],
    }),
  });
  const events = await speakInto(stt, 1);
  expect(events).toEqual([
    expect.objectContaining({ type: 'partial', text: 'Hello' }),
    { type: 'error', code, retryable, message: expect.stringContaining(`scripted ${exception}`) },
  ]);
});

test("past the quota of concurrent streams: AWS's LimitExceededException (429) as stt_throttled", async () => {
  const { stt } = await setUp({ maxStreams: 1, script: () => ({ steps: [{ atSeconds: 5, final: 'late' }] }) });
  const first = stt.open({ language: 'en' });
  const firstEvents = collect(first);
  first.write(new Int16Array(STT_SAMPLE_RATE / 10));
  await new Promise<void>((resolve) => {
    const wait = () => (fake!.open === 1 ? resolve() : setTimeout(wait, 5));
    wait();
  });
  const second = await speakInto(stt, 0.2);
  expect(second).toEqual([
    expect.objectContaining({
      type: 'error',
      code: 'stt_throttled',
      retryable: true,
      message: expect.stringMatching(/LimitExceededException/),
    }),
  ]);
  first.close();
  expect(await firstEvents).toEqual([]);
});

test('wrong credentials: the signature is refused (403), stt_refused, not retryable', async () => {
  const { stt } = await setUp(
    { script: () => ({}) },
    { clientConfig: { credentials: { accessKeyId: LOCAL_ACCESS_KEY_ID, secretAccessKey: 'not-the-secret' } } },
  );
  const events = await speakInto(stt, 0.2);
  expect(events).toEqual([
    expect.objectContaining({
      type: 'error',
      code: 'stt_refused',
      retryable: false,
      message: expect.stringMatching(/signature/i),
    }),
  ]);
});

test('nothing listening at the endpoint: stt_unavailable', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  process.env.AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING = `http://127.0.0.1:${port}`;
  stt = createTranscribeSpeechToText();
  const events = await speakInto(stt, 0.2);
  expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'stt_unavailable', retryable: true })]);
});
