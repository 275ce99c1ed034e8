import { expect, test } from '@jest/globals';
import { concatPcm, silence, speak } from '../testing/spoken-audio.ts';
import { SttError } from './errors.ts';
import { createOfflineSpeechToText, offlineTranscript } from './offline.ts';
import { SileroVad } from './silero-vad.ts';
import { STT_SAMPLE_RATE, type SttEvent, type SttStream } from './types.ts';
import { openUtteranceStream, type TranscribeUtterance } from './utterance-stream.ts';

const sec = (s: number) => Math.round(s * STT_SAMPLE_RATE);
/** A ramp, so a test can tell which samples an utterance got: sample i holds i mod 30000. */
const ramp = (from: number, length: number) => Int16Array.from({ length }, (_, i) => (from + i) % 30000);

async function collect(stream: SttStream): Promise<SttEvent[]> {
  const out: SttEvent[] = [];
  for await (const e of stream.events) out.push(e);
  return out;
}

function recording(): { calls: Int16Array[]; transcribe: TranscribeUtterance } {
  const calls: Int16Array[] = [];
  return { calls, transcribe: async (pcm) => (calls.push(pcm), `utterance ${calls.length}`) };
}

test('each speechStart..speechEnd is one utterance, with the samples between them, in order', async () => {
  const { calls, transcribe } = recording();
  const stream = openUtteranceStream('test', transcribe, { language: 'en' });
  const done = collect(stream);
  stream.write(ramp(0, sec(1)));
  stream.speechStart(sec(0.5)); // reported late, as the VAD does: the onset is in the past
  stream.write(ramp(sec(1), sec(1)));
  stream.speechEnd(sec(1.5));
  stream.write(ramp(sec(2), sec(1)));
  stream.speechStart(sec(2.25));
  stream.speechEnd(sec(2.75));
  stream.end();
  expect(await done).toEqual([
    { type: 'final', text: 'utterance 1', endSample: sec(1.5) },
    { type: 'final', text: 'utterance 2', endSample: sec(2.75) },
  ]);
  expect(Array.from(calls[0]!)).toEqual(Array.from(ramp(sec(0.5), sec(1))));
  expect(Array.from(calls[1]!)).toEqual(Array.from(ramp(sec(2.25), sec(0.5))));
});

test('end() sends an utterance still open; audio outside utterances is never sent', async () => {
  const { calls, transcribe } = recording();
  const stream = openUtteranceStream('test', transcribe, { language: 'en' });
  const done = collect(stream);
  stream.write(ramp(0, sec(3)));
  stream.speechStart(sec(2));
  stream.end();
  expect(await done).toEqual([{ type: 'final', text: 'utterance 1', endSample: sec(3) }]);
  expect(calls.map((c) => c.length)).toEqual([sec(1)]);
});

test('an utterance longer than the limit is cut there and goes on as the next', async () => {
  const { calls, transcribe } = recording();
  const stream = openUtteranceStream('test', transcribe, { language: 'en' }, { maxUtteranceSeconds: 2 });
  const done = collect(stream);
  stream.speechStart(0);
  for (let i = 0; i < 5; i++) stream.write(ramp(sec(i), sec(1)));
  stream.speechEnd(sec(5));
  stream.end();
  expect((await done).map((e) => e.type === 'final' && e.endSample)).toEqual([sec(2), sec(4), sec(5)]);
  expect(calls.map((c) => c.length)).toEqual([sec(2), sec(2), sec(1)]);
  expect(Array.from(calls[1]!.subarray(0, 3))).toEqual(Array.from(ramp(sec(2), 3)));
});

test('a provider error becomes one error event and ends the stream', async () => {
  const stream = openUtteranceStream(
    'test',
    async () => {
      throw new SttError('stt_throttled', 'test: 429 Too Many Requests');
    },
    { language: 'en' },
  );
  const done = collect(stream);
  stream.speechStart(0);
  stream.write(ramp(0, sec(1)));
  stream.speechEnd(sec(1));
  expect(await done).toEqual([
    { type: 'error', code: 'stt_throttled', message: 'test: 429 Too Many Requests', retryable: true },
  ]);
  stream.write(ramp(0, 10)); // after the end: ignored, not thrown
});

test('a provider that cannot keep up fails the stream instead of queueing without bound', async () => {
  const never: TranscribeUtterance = (_pcm, { signal }) =>
    new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
  const stream = openUtteranceStream('slow', never, { language: 'en' }, { maxPending: 2 });
  const done = collect(stream);
  for (let i = 0; i < 4; i++) {
    stream.speechStart(sec(i));
    stream.write(ramp(sec(i), sec(1)));
    stream.speechEnd(sec(i + 1));
  }
  const events = await done;
  expect(events).toEqual([expect.objectContaining({ type: 'error', code: 'stt_timeout' })]);
  expect((events[0] as { message: string }).message).toMatch(/cannot keep up/);
});

test('close() and an aborted signal end the events at once, twice is safe', async () => {
  const controller = new AbortController();
  const stream = openUtteranceStream('test', recording().transcribe, { language: 'en', signal: controller.signal });
  const done = collect(stream);
  stream.speechStart(0);
  stream.write(ramp(0, 100));
  controller.abort();
  stream.close();
  expect(await done).toEqual([]);
});

test('the offline stand-in over the Silero VAD: real speech gives one honest placeholder per utterance', async () => {
  const vad = await SileroVad.load();
  const stream = createOfflineSpeechToText().open({ language: 'en' });
  const done = collect(stream);
  const audio = concatPcm(
    silence(500),
    await speak('Good morning.'),
    silence(1200),
    await speak('What time is it?'),
    silence(800),
  );
  for (let at = 0; at < audio.length; at += 320) {
    const piece = audio.subarray(at, at + 320);
    stream.write(piece);
    for (const e of await vad.push(piece)) {
      if (e.type === 'speech_start') stream.speechStart(e.sample);
      else stream.speechEnd(e.sample);
    }
  }
  stream.end();
  await vad.close();
  const finals = (await done).filter((e) => e.type === 'final');
  expect(finals).toHaveLength(2);
  for (const f of finals) expect(f.text).toMatch(/^Offline stand-in heard \d+\.\d seconds of speech\.$/);
  expect(offlineTranscript(sec(1.44))).toBe('Offline stand-in heard 1.4 seconds of speech.');
});
