// What callers expect beyond PCM, end to end on loopback (echo LLM -> agent -> Kokoro container on
// the stand-in model with a durations output): word events on the turn's audio clock, Opus audio
// that decodes to exactly the PCM samples, the voice list, clear errors for formats, and a
// conversation's history cut at the word the caller reached.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { OpusScriptDecoder, unpackOpusRecords } from '@kokoro-speech/protocol/audio';
import { turnEventSchema, type TurnWord } from '@kokoro-speech/protocol';
import {
  LOCAL_CREDENTIALS,
  startLocalSageMakerRouter,
  type LocalSageMakerRouter,
} from '@kokoro-speech/sagemaker/router';
import { EchoProvider } from '../llm/echo.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { sentencesOf, startTestContainer, type TestContainer } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import { SageMakerResponseStreamTransport } from '../tts/response-stream-transport.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';

const PROMPT = 'It costs $3.50 a month, out of the box. Then the rest follows, word by word.';
const echo = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 });

let container: TestContainer;
let router: LocalSageMakerRouter;
let direct: AgentServer;
let viaBidi: AgentServer;
let viaResponseStream: AgentServer;

beforeAll(async () => {
  container = await startTestContainer({}, { durations: true });
  router = await startLocalSageMakerRouter({ containerUrl: container.server.url });
  const sagemaker = {
    endpointName: 'kokoro-local',
    region: 'us-east-1',
    endpoint: router.url,
    credentials: LOCAL_CREDENTIALS,
  };
  direct = await startAgentServer({ llm: echo, tts: new WebSocketTransport({ url: container.server.wsUrl }) });
  viaBidi = await startAgentServer({ llm: echo, tts: new SageMakerBidiTransport(sagemaker) });
  viaResponseStream = await startAgentServer({ llm: echo, tts: new SageMakerResponseStreamTransport(sagemaker) });
});
afterAll(async () => {
  for (const a of [direct, viaBidi, viaResponseStream]) await a?.close();
  await router?.close();
  await container?.close();
});

async function wsTurn(server: AgentServer, request: object): Promise<PipelineEvent[]> {
  const caller = await WsCaller.connect(server.wsUrl);
  caller.send({ type: 'prompt', ...request });
  await caller.until((events) => events.some((e) => e.type === 'done'));
  caller.close();
  return caller.turn(0);
}
const turnOver = async (server: AgentServer, via: 'sse' | 'ws', request: object) =>
  via === 'sse' ? (await sseTurn(server.url, request)).events : await wsTurn(server, request);

describe.each(['sse', 'ws'] as const)('over %s', (via) => {
  test.each([
    ['direct WebSocket', () => direct],
    ['SageMaker bidi', () => viaBidi],
  ])('words: in order, inside their sentence, on the turn audio clock (TTS over %s)', async (_name, server) => {
    const events = await turnOver(server(), via, { prompt: PROMPT, words: true });
    for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
    const sentences = sentencesOf(events);
    let sentenceStart = 0;
    const all: TurnWord[] = [];
    for (const s of sentences) {
      const at = events.findIndex((e) => e.type === 'sentence' && e.id === s.id);
      const end = events.findIndex((e) => e.type === 'sentence_end' && e.id === s.id);
      const words = events
        .slice(at, end)
        .filter((e): e is Extract<PipelineEvent, { type: 'words' }> => e.type === 'words');
      expect(words.length).toBeGreaterThan(0);
      expect(words.every((w) => w.id === s.id && w.estimated === false)).toBe(true);
      const list = words.flatMap((w) => w.words);
      // The caller's own words, each once, as shown: "$3.50" is one word though spoken as four.
      expect(list.map((w) => w.text)).toEqual(s.text.trim().split(/\s+/));
      for (const w of list) {
        expect(s.text.slice(w.start, w.end)).toBe(w.text);
        expect(w.start_ms).toBeGreaterThanOrEqual(sentenceStart);
        expect(w.end_ms).toBeLessThanOrEqual(sentenceStart + s.duration_ms! + 0.01);
        expect(w.end_ms).toBeGreaterThan(w.start_ms);
      }
      all.push(...list);
      sentenceStart += s.duration_ms!;
    }
    for (let i = 1; i < all.length; i++) expect(all[i]!.start_ms).toBeGreaterThanOrEqual(all[i - 1]!.end_ms);
    expect(all.find((w) => w.text === '$3.50')).toBeDefined();
    // Not asked for: not sent.
    expect((await turnOver(server(), via, { prompt: PROMPT })).some((e) => e.type === 'words')).toBe(false);
  });

  test('Opus: 20 ms records that decode to exactly the PCM samples of every sentence, at a fraction of the bytes', async () => {
    const pcm = sentencesOf(await turnOver(direct, via, { prompt: PROMPT }));
    const events = await turnOver(direct, via, { prompt: PROMPT, format: 'opus', words: true });
    expect(events[0]).toMatchObject({
      type: 'start',
      format: 'opus',
      sample_rate: 24000,
      opus: { frame_samples: 480, pre_skip: 156, bitrate: 24000 },
    });
    const decoder = new OpusScriptDecoder(24000);
    const opus = sentencesOf(events);
    expect(opus.map((s) => s.text)).toEqual(pcm.map((s) => s.text));
    let opusBytes = 0;
    for (const s of opus) {
      const chunks = events.filter((e) => e.type === 'audio' && e.id === s.id) as Extract<
        PipelineEvent,
        { type: 'audio' }
      >[];
      const records = chunks.flatMap((c) => unpackOpusRecords(c.data));
      opusBytes += chunks.reduce((n, c) => n + c.data.byteLength, 0);
      const samples = decoder.decode(records).length / 2;
      expect(samples).toBe(pcm.find((p) => p.id === s.id)!.bytes / 2);
    }
    decoder.close();
    const pcmBytes = pcm.reduce((n, s) => n + s.bytes, 0);
    expect(opusBytes * 5).toBeLessThan(pcmBytes);
    // Word events come the same as with PCM.
    expect(events.filter((e) => e.type === 'words').length).toBeGreaterThan(0);
  });

  test('an unknown format is refused, naming the ones there are', async () => {
    const answer =
      via === 'sse'
        ? (await sseTurn(direct.url, { prompt: 'Hi.', format: 'flac' })).events
        : await (async () => {
            const c = await WsCaller.connect(direct.wsUrl);
            c.send({ type: 'prompt', prompt: 'Hi.', format: 'flac' });
            await c.until((e) => e.some((x) => x.type === 'error'));
            c.close();
            return c.events;
          })();
    expect(answer[0]).toMatchObject({ type: 'error', code: 'invalid_request' });
    expect((answer[0] as { message: string }).message).toMatch(/format.*pcm_s16le.*wav.*mulaw.*opus/);
  });
});

test("a format the agent's TTS transport cannot deliver is a 400 (SSE) or an error event (WebSocket) naming the transport", async () => {
  const { status, events } = await sseTurn(viaResponseStream.url, { prompt: 'Hi.', format: 'wav' });
  expect(status).toBe(400);
  expect(events[0]).toMatchObject({ code: 'invalid_request' });
  expect((events[0] as { message: string }).message).toMatch(
    /wav is not available through this agent's TTS transport \(sagemaker-response-stream\); use one of pcm_s16le, mulaw, alaw, opus/,
  );
  const c = await WsCaller.connect(viaResponseStream.wsUrl);
  c.send({ type: 'prompt', prompt: 'Hi.', format: 'wav' });
  await c.until((e) => e.some((x) => x.type === 'error'));
  expect(c.events[0]).toMatchObject({ type: 'error', code: 'invalid_request' });
  c.close();
  // Opus is made by the agent from PCM: available whatever the transport.
  const opus = await sseTurn(viaResponseStream.url, { prompt: 'Hi there.', format: 'opus' });
  expect(opus.status).toBe(200);
  expect(sentencesOf(opus.events).length).toBe(1);
});

test('the voice list: over the WebSocket and as POST {"voices": true}, with what kokoro-js says of each voice', async () => {
  for (const server of [direct, viaBidi]) {
    const c = await WsCaller.connect(server.wsUrl);
    c.send({ type: 'voices' });
    await c.until((e) => e.some((x) => x.type === 'voices'));
    c.close();
    const event = turnEventSchema.parse(c.events[0]);
    expect(event).toMatchObject({ type: 'voices', default: 'af_heart' });
    const voices = (event as { voices: { id: string }[] }).voices;
    expect(voices.find((v) => v.id === 'af_heart')).toMatchObject({
      name: 'Heart',
      language: 'en-us',
      gender: 'Female',
    });
    expect(voices.find((v) => v.id === 'bf_emma')).toMatchObject({ language: 'en-gb' });
    const response = await fetch(`${server.url}/invocations`, { method: 'POST', body: '{"voices": true}' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as { voices: { id: string }[]; default: string };
    expect(body.voices.map((v) => v.id)).toEqual(voices.map((v) => v.id));
  }
});

test('barge-in on an Opus turn: done (cancelled) comes, and nothing of the turn after it', async () => {
  const c = await WsCaller.connect(direct.wsUrl);
  const long = 'This sentence is long enough to take a while to speak, and it goes on. '.repeat(8);
  c.send({ type: 'prompt', prompt: long, format: 'opus' });
  await c.until((e) => e.some((x) => x.type === 'audio'));
  c.send({ type: 'cancel' });
  await c.until((e) => e.some((x) => x.type === 'done'));
  const done = c.events.findIndex((e) => e.type === 'done');
  expect(c.events[done]).toMatchObject({ type: 'done', cancelled: true });
  // The socket takes the next turn at once, and the cancelled one sends nothing more.
  c.send({ type: 'prompt', prompt: 'Next one.', format: 'opus' });
  await c.until((e) => e.filter((x) => x.type === 'done').length === 2);
  const next = c.turn(1);
  expect(next[0]).toMatchObject({ type: 'start', format: 'opus' });
  expect(sentencesOf(next).map((s) => s.text)).toEqual(['Next one.']);
  c.close();
});

describe("the history cut at the word the caller reached (word timings from the model's durations)", () => {
  const ANSWER =
    'This first sentence is heard whole. The second sentence is cut somewhere in the middle of its many words. ' +
    'A third one is not heard at all.';
  let counter = 0;
  const sessionId = () => `heard-words-${String(++counter).padStart(4, '0')}-0123456789abcdef`;
  const textOf = (events: PipelineEvent[]) =>
    events
      .filter((e) => e.type === 'text')
      .map((e) => (e as { delta: string }).delta)
      .join('');
  /** What the proportional rule would keep of `text` after `fraction` of its audio: whole words only. */
  const partOf = (text: string, fraction: number) =>
    text
      .slice(0, Math.floor(fraction * text.length))
      .replace(/\S*$/, '')
      .trimEnd();

  test.each([
    ['SSE (previous_played_ms, PCM)', 'sse'],
    ['WebSocket (cancel after done, Opus)', 'ws'],
  ] as const)(
    '%s: the stored answer ends at the last word that ended, not at a fraction of the characters',
    async (_name, via) => {
      const session = sessionId();
      const caller = via === 'ws' ? await WsCaller.connect(direct.wsUrl) : null;
      try {
        let events: PipelineEvent[];
        if (caller) {
          caller.send({ type: 'prompt', prompt: ANSWER, session_id: session, words: true, format: 'opus' });
          await caller.until((e) => e.some((x) => x.type === 'done'));
          events = caller.turn(0);
        } else {
          events = (await sseTurn(direct.url, { prompt: ANSWER, session_id: session, words: true })).events;
        }
        const [s0, s1] = sentencesOf(events);
        const words = events
          .filter((e): e is Extract<PipelineEvent, { type: 'words' }> => e.type === 'words' && e.id === s1!.id)
          .flatMap((e) => e.words);
        expect(words.length).toBeGreaterThan(3);
        // Halfway through word k of the second sentence (on the caller's audio clock): words 0..k-1
        // were heard. Pick a word where counting words and counting characters disagree.
        const cuts = words.slice(1).map((w, i) => {
          const played = (w.start_ms + w.end_ms) / 2;
          return {
            played,
            byWords: s1!.text.slice(0, words[i]!.end),
            byCharacters: partOf(s1!.text, (played - s0!.duration_ms!) / s1!.duration_ms!),
          };
        });
        const cut = cuts.find((c) => c.byWords !== c.byCharacters);
        expect(cut).toBeDefined();
        // What the agent kept of that turn for the cut: the same words, in the sentence's own time.
        const conversation = direct.sessions.get(session);
        for (let i = 0; i < 200 && conversation.busy; i++) await sleep(10);
        const kept = conversation.lastTurn!.result!.sentences[1]!;
        expect(kept.wordsEstimated).toBeUndefined();
        expect(kept.words!.map((w) => [w.textStart, w.textEnd])).toEqual(words.map((w) => [w.start, w.end]));
        for (const [i, w] of kept.words!.entries()) expect(w.endMs + s0!.duration_ms!).toBeCloseTo(words[i]!.end_ms, 1);

        let answer: string;
        if (caller) {
          caller.send({ type: 'cancel', played_ms: cut!.played });
          caller.send({ type: 'prompt', prompt: 'What did you say before?', session_id: session });
          await caller.until((e) => e.filter((x) => x.type === 'done').length === 2);
          answer = textOf(caller.turn(1));
        } else {
          const next = await sseTurn(direct.url, {
            prompt: 'What did you say before?',
            session_id: session,
            previous_played_ms: cut!.played,
          });
          answer = textOf(next.events);
        }
        expect(answer).toBe(`I said: ${s0!.text} ${cut!.byWords}`);
      } finally {
        caller?.close();
      }
    },
  );
});
