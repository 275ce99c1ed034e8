// Faults against the real container on the stand-in model (250 ms per model run): the local
// SageMaker router restarted mid-stream (the session layer re-opens the stream), away past that
// budget (LiveKit reruns the stream, which speaks only what is left), gone mid-sentence (LiveKit's
// error, not rerun: that would repeat audio), and refusals: MAX_SESSIONS ridden out by the
// session layer's retries or by LiveKit's rerun, admission control past every budget.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { APIConnectionError, APIStatusError, tokenize } from '@livekit/agents';
import { WebSocketTransport } from '@kokoro-speech/runtime/tts';
import type { TtsSession } from '@kokoro-speech/runtime/tts';
import { boundedPieces } from './bounded-pieces.ts';
import { TTS } from './index.ts';
import type { TTSOptions } from './index.ts';
import { containerAudio, pcm, quietLiveKit, readAll, startStandIn, until } from './testing/stand-in.ts';
import { sentencesOf } from './testing/texts.ts';
import type { TtsErrorEvent } from './testing/texts.ts';
import type { StandIn } from './testing/stand-in.ts';

quietLiveKit();
let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn({ maxSessions: 2, maxTextChars: 1000 }, { simulatedDelayMs: 250 });
}, 60_000);
afterAll(() => standIn?.close());

const SENTENCES = [
  'The router will go away while this answer is being spoken.',
  'The session layer opens the stream again and goes on where it broke off.',
  'Every sample arrives once, in order, with nothing lost.',
  'And this last sentence is spoken after the restart.',
];

function make(o: TTSOptions = {}): { kokoro: TTS; errors: TtsErrorEvent[] } {
  const kokoro = new TTS({ ...standIn.modes.sagemaker, voice: 'af_heart', ...o });
  const errors: TtsErrorEvent[] = [];
  kokoro.on('error', (e) => errors.push(e));
  return { kokoro, errors };
}

/** The router goes away (its connections cut) and comes back on its port `ms` later. */
async function routerAway(ms: number): Promise<void> {
  await standIn.router.close();
  await new Promise((r) => setTimeout(r, ms));
  await standIn.restartRouter();
}

const NO_RERUN = { maxRetry: 0, retryIntervalMs: 0, timeoutMs: 10_000 };
const RERUNS = { maxRetry: 3, retryIntervalMs: 300, timeoutMs: 10_000 };

const routed = () => standIn.router.instances()[0]!.routed;
const outstanding = () => standIn.router.instances()[0]!.outstanding;

/** Takes every session slot of the container (MAX_SESSIONS=2), until released. */
async function fillSlots(): Promise<() => void> {
  const transport = new WebSocketTransport({ url: standIn.container.wsUrl });
  const held: TtsSession[] = [await transport.open({}), await transport.open({})];
  return () => held.forEach((s) => s.close());
}

test('a router restart mid-stream is ridden out by the session layer: every sample once, in order, no error', async () => {
  const { kokoro, errors } = make();
  const stream = kokoro.stream({ connOptions: NO_RERUN });
  stream.pushText(SENTENCES.join(' '));
  stream.endInput();
  let restarted: Promise<void> | undefined;
  const { audio, endOfStream } = await readAll(stream, () => {
    // At the first audio: the other sentences are still being synthesised (250 ms each).
    restarted ??= routerAway(300);
  });
  await restarted;
  expect(errors).toEqual([]);
  expect(endOfStream).toBe(true);
  expect(sentencesOf(audio)).toEqual(SENTENCES);
  const reference = await containerAudio(standIn.container, SENTENCES, { voice: 'af_heart' });
  expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
});

test("a router away past the reconnect budget between sentences: LiveKit's rerun speaks the rest, each once", async () => {
  const reference = await containerAudio(standIn.container, SENTENCES, { voice: 'af_heart' });
  const { kokoro, errors } = make({ retry: { reconnectBudgetMs: 200 } });
  const stream = kokoro.stream({ connOptions: { maxRetry: 5, retryIntervalMs: 400, timeoutMs: 10_000 } });
  stream.pushText(SENTENCES.join(' '));
  stream.endInput();
  let away: Promise<void> | undefined;
  let received = 0;
  const { audio, endOfStream } = await readAll(stream, (a) => {
    received += a.frame.samplesPerChannel * 2;
    // The first sentence is whole; the second's audio is a model run (250 ms) away.
    if (received < reference[0]!.length) return;
    away ??= routerAway(1000);
  });
  await away;
  expect(errors).toEqual([]);
  expect(endOfStream).toBe(true);
  expect(sentencesOf(audio)).toEqual(SENTENCES);
  expect(new Set(audio.map((a) => a.requestId)).size).toBe(2); // two attempts
  expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
});

test('a router gone for good in the middle of a sentence: a connection error LiveKit may not retry', async () => {
  // One long sentence (LiveKit's tokenizer does not cut it) that the container speaks in several
  // model runs, 250 ms apart: the router goes after the first run's audio.
  const long = Array.from({ length: 12 }, (_, i) => `clause number ${i} runs on and on without an end`).join(', ');
  const { kokoro, errors } = make({
    retry: { reconnectBudgetMs: 200 },
    sentenceTokenizer: new tokenize.basic.SentenceTokenizer(),
  });
  const stream = kokoro.stream(); // LiveKit's default: 3 reruns, each of which would repeat audio
  stream.pushText(`${long}.`);
  stream.endInput();
  let gone: Promise<void> | undefined;
  const { audio, endOfStream } = await readAll(stream, () => {
    gone ??= standIn.router.close();
  });
  await gone;
  try {
    expect(endOfStream).toBe(false);
    expect(errors).toHaveLength(1);
    const [{ error, recoverable }] = errors as [TtsErrorEvent];
    expect(recoverable).toBe(false);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toMatch(/^Kokoro TTS: /); // the plugin's own error: LiveKit did not rerun
    expect((error as APIConnectionError).retryable).toBe(false);
    // What was delivered is the start of the sentence's audio (spoken in the agent's bounded
    // pieces), nothing else.
    const pieces = boundedPieces(`${long}.`);
    expect(pieces.length).toBeGreaterThan(1);
    const reference = Buffer.concat(await containerAudio(standIn.container, pieces, { voice: 'af_heart' }));
    const got = pcm(audio);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(reference.length);
    expect(got.equals(reference.subarray(0, got.length))).toBe(true);
  } finally {
    await standIn.restartRouter();
  }
});

test("a sentence longer than the container takes (MAX_TEXT_CHARS) is cut to the agent's bound and spoken whole, with no error", async () => {
  const tooLong = `${Array.from({ length: 30 }, (_, i) => `part ${i} of a sentence that never ends`).join(', ')}.`;
  expect(tooLong.length).toBeGreaterThan(1000); // the stand-in container's limit
  const { kokoro, errors } = make({ sentenceTokenizer: new tokenize.basic.SentenceTokenizer() });
  const stream = kokoro.stream({ connOptions: NO_RERUN });
  stream.pushText(`This one is spoken first. ${tooLong} And this one after it.`);
  stream.endInput();
  const { audio, endOfStream } = await readAll(stream);
  expect(endOfStream).toBe(true);
  expect(errors).toEqual([]);
  const spoken = ['This one is spoken first.', ...boundedPieces(tooLong), 'And this one after it.'];
  expect(spoken.every((piece) => piece.length <= 250)).toBe(true);
  const reference = await containerAudio(standIn.container, spoken, { voice: 'af_heart' });
  expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
});

describe('refused sessions (MAX_SESSIONS)', () => {
  const text = 'Spoken once a session slot is free.';

  test.each([
    ["the session layer's retries within its budget", {}, NO_RERUN],
    [
      "LiveKit's rerun when the session layer may not retry (nothing was delivered yet)",
      { retry: { budgetMs: 0 } },
      RERUNS,
    ],
  ] as const)('ridden out by %s', async (_, options, connOptions) => {
    const release = await fillSlots();
    const before = routed();
    const { kokoro, errors } = make(options);
    const stream = kokoro.stream({ connOptions });
    stream.pushText(text);
    stream.endInput();
    const reading = readAll(stream);
    await until(() => routed() > before && outstanding() === 0, 5000, 'a refused try');
    release();
    const { audio, endOfStream } = await reading;
    expect(errors).toEqual([]);
    expect(endOfStream).toBe(true);
    expect(routed()).toBeGreaterThanOrEqual(before + 2); // each try (and each rerun) is a new stream
    expect(pcm(audio).equals((await containerAudio(standIn.container, [text], { voice: 'af_heart' }))[0]!)).toBe(true);
  });
});

describe('admission control refuses every session', () => {
  let refusing: StandIn;
  beforeAll(async () => {
    refusing = await startStandIn({ admission: 'on', admissionMaxUtilization: 0.0001 });
  }, 60_000);
  afterAll(() => refusing?.close());

  test.each(['sagemaker', 'websocket'] as const)(
    "%s: LiveKit's status error 503, retryable, after LiveKit's reruns; the container says why",
    async (mode) => {
      const before = refusing.router.instances()[0]!.routed;
      const kokoro = new TTS({ ...refusing.modes[mode], voice: 'af_heart', retry: { budgetMs: 0 } });
      const errors: TtsErrorEvent[] = [];
      kokoro.on('error', (e) => errors.push(e));
      const stream = kokoro.stream({ connOptions: { maxRetry: 2, retryIntervalMs: 50, timeoutMs: 10_000 } });
      stream.pushText('Never spoken.');
      stream.endInput();
      const { audio, endOfStream } = await readAll(stream);
      expect(audio).toEqual([]);
      expect(endOfStream).toBe(false);
      expect(errors).toHaveLength(1); // LiveKit reports the last attempt's error
      const [{ error, recoverable }] = errors as [TtsErrorEvent];
      expect(recoverable).toBe(false);
      expect(error).toBeInstanceOf(APIStatusError);
      expect(error).toMatchObject({ statusCode: 503, retryable: true, body: { code: 'overloaded' } });
      expect(error.message).toMatch(/refused .*ADMISSION_MAX_UTILIZATION/);
      // Three attempts of one try each (the session layer's budget is 0).
      if (mode === 'sagemaker') expect(refusing.router.instances()[0]!.routed).toBe(before + 3);
    },
  );
});
