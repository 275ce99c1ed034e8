import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { EchoProvider } from '../llm/echo.ts';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startCutProxy } from '../testing/cut-proxy.ts';
import { turnEventSchema } from '@kokoro-speech/protocol';
import { runTurn, type PipelineEvent, type TurnContext } from './turn.ts';
import type { PolicyPlanner, TurnPolicy } from './policies.ts';
import { referencePolicy, streamNoEarlyFirstPolicy } from '../testing/bench-policies.ts';
import { joinedText, sentencesOf, shape, startTestContainer, textOf, type TestContainer } from '../testing/harness.ts';
import { startFakeOpenAI } from '../testing/fake-llm-servers.ts';

const ANSWER =
  'Kokoro is a small text to speech model, and because it is small it can start speaking very quickly on a single GPU. ' +
  'It has about 82 million parameters. Dr. Smith measured $29.99 per hour!\n\n' +
  'A second paragraph follows here. It ends the answer.';

let container: TestContainer;
let context: TurnContext;
beforeAll(async () => {
  container = await startTestContainer();
  context = {
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 5000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
  };
});
afterAll(async () => container?.close());

async function turn(
  policy: TurnPolicy | PolicyPlanner,
  overrides: Partial<TurnContext> = {},
  prompt = ANSWER,
  signal?: AbortSignal,
) {
  const events: PipelineEvent[] = [];
  const result = await runTurn(
    { ...context, ...overrides },
    {
      request: { prompt },
      policy,
      emit: (e) => events.push(e),
      ...(signal ? { signal } : {}),
    },
  );
  return { events, result };
}

describe('runTurn', () => {
  test.each([
    ['stream', 'stream'],
    ['stream-no-early-first', streamNoEarlyFirstPolicy],
    ['batch', 'batch'],
    ['reference', referencePolicy],
  ] as const)('%s: events in order, every sentence spoken once with its audio in between', async (_name, policy) => {
    const { events, result } = await turn(policy);
    expect(result.outcome).toBe('completed');
    // Every event but audio (which carries bytes here) is valid on the wire.
    for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
    const s = shape(events);
    expect(s[0]).toBe('start');
    expect(s.slice(-2)).toEqual(['metrics', 'done']);
    expect(textOf(events)).toBe(ANSWER);
    const sentences = sentencesOf(events);
    expect(sentences.map((x) => x.id)).toEqual(sentences.map((_, i) => `s${i}`));
    // Nothing lost or duplicated: the sentences joined are the answer (up to whitespace).
    expect(joinedText(sentences)).toBe(ANSWER.replace(/\s+/g, ' '));
    for (const x of sentences) {
      expect(x.seqs).toEqual(x.seqs.map((_, i) => i));
      // pcm_s16le at 24 kHz: 48 bytes per ms; the bytes match the reported duration.
      expect(x.bytes).toBeGreaterThan(0);
      expect(x.bytes / 48).toBeCloseTo(x.duration_ms!, 0);
    }
    const metrics = events.find((e) => e.type === 'metrics')!;
    expect(metrics).toMatchObject({ sentences: sentences.length });
    if (metrics.type !== 'metrics') throw new Error('unreachable');
    expect(metrics.audio_ms).toBeCloseTo(
      sentences.reduce((a, x) => a + x.duration_ms!, 0),
      1,
    );
    expect(metrics.first_audio_ms!).toBeGreaterThanOrEqual(metrics.first_sentence_ms!);
    expect(metrics.first_sentence_ms!).toBeGreaterThanOrEqual(metrics.first_token_ms!);
    expect(result.sentences.every((t) => t.spoken.length > 0 && t.sentMs! >= t.readyMs)).toBe(true);
  });

  test('stream cuts the long first sentence early at a clause; without the early piece it does not', async () => {
    const ours = sentencesOf((await turn('stream')).events);
    const late = sentencesOf((await turn(streamNoEarlyFirstPolicy)).events);
    expect(ours[0]!.text).toBe('Kokoro is a small text to speech model,');
    expect(late[0]!.text).toBe(
      'Kokoro is a small text to speech model, and because it is small it can start speaking very quickly on a single GPU.',
    );
    // Speech text is normalised; the shown text is not.
    const money = ours.find((x) => x.text.includes('$29.99'))!;
    expect(money.spoken).not.toContain('$');
  });

  test('batch sends nothing to Kokoro before the whole answer is in', async () => {
    const { events, result } = await turn('batch');
    const lastText = events.findLastIndex((e) => e.type === 'text');
    expect(events.findIndex((e) => e.type === 'sentence')).toBeGreaterThan(lastText);
    const answerDone = Math.max(...result.sentences.map((t) => t.readyMs));
    expect(result.sentences.every((t) => t.sentMs! >= answerDone)).toBe(true);
  });

  test('reference sends each sentence only after the previous one has all its audio', async () => {
    const { events, result } = await turn(referencePolicy);
    const ends = new Map<string, number>();
    events.forEach((e, i) => e.type === 'sentence_end' && ends.set(e.id, i));
    expect(result.sentences.length).toBeGreaterThan(3);
    // The regex split cuts after "Dr." (the reference's known flaw).
    expect(result.sentences.some((t) => t.text === 'Dr.')).toBe(true);
    for (let i = 1; i < result.sentences.length; i++) {
      expect(result.sentences[i]!.sentMs!).toBeGreaterThanOrEqual(result.sentences[i - 1]!.firstAudioMs!);
    }
  });

  test('cancel stops the LLM and the TTS work: after the abort only metrics and done{cancelled} follow', async () => {
    const controller = new AbortController();
    const slow = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 200 });
    const events: PipelineEvent[] = [];
    let cutAt = -1;
    const result = await runTurn(
      { ...context, llm: slow },
      {
        request: { prompt: ANSWER.repeat(5) },
        signal: controller.signal,
        emit: (e) => {
          events.push(e);
          if (e.type === 'audio' && cutAt < 0) {
            cutAt = events.length;
            controller.abort();
          }
        },
      },
    );
    expect(result.outcome).toBe('cancelled');
    expect(events.slice(cutAt).map((e) => e.type)).toEqual(['metrics', 'done']);
    expect(events.at(-1)).toEqual({ type: 'done', cancelled: true });
  });

  test('a stream broken mid-sentence is resumed: every sentence once, its audio complete and not repeated', async () => {
    const clean = sentencesOf((await turn('stream')).events);
    const proxy = await startCutProxy(container.server.port);
    try {
      const tts = new WebSocketTransport({ url: `ws://127.0.0.1:${proxy.port}` });
      const events: PipelineEvent[] = [];
      let audioOfS1 = 0;
      const result = await runTurn(
        { ...context, tts },
        {
          request: { prompt: ANSWER },
          emit: (e) => {
            events.push(e);
            // Cut the connection after s1 has delivered part of its audio.
            if (e.type === 'audio' && e.id === 's1' && ++audioOfS1 === 1) proxy.cutAll();
          },
        },
      );
      expect(result.outcome).toBe('completed');
      const broken = sentencesOf(events);
      expect(audioOfS1).toBeGreaterThan(1);
      expect(events.filter((e) => e.type === 'sentence' && e.id === 's1')).toHaveLength(1);
      expect(broken.map((x) => [x.id, x.text, x.bytes])).toEqual(clean.map((x) => [x.id, x.text, x.bytes]));
      for (const x of broken) expect(x.seqs).toEqual(x.seqs.map((_, i) => i));
    } finally {
      await proxy.close();
    }
  });

  test('an answer with nothing to speak (a code block) ends cleanly with no sentences', async () => {
    const prompt = '```\nconst x = 1;\n```';
    const { events, result } = await turn('stream', {}, prompt);
    expect(result.outcome).toBe('completed');
    expect(shape(events)).toEqual(['start', 'text', 'metrics', 'done']);
    expect(events.find((e) => e.type === 'metrics')).toMatchObject({
      sentences: 0,
      first_sentence_ms: null,
      first_audio_ms: null,
      audio_ms: 0,
    });
  });

  test('a turn over its time limit ends with a timeout error, its work stopped', async () => {
    const events: PipelineEvent[] = [];
    const slow = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 20 });
    const result = await runTurn(
      { ...context, llm: slow },
      { request: { prompt: ANSWER }, timeoutMs: 300, emit: (e) => events.push(e) },
    );
    expect(result.outcome).toBe('failed');
    expect(result.error).toEqual({ code: 'timeout', message: 'the turn took longer than 300 ms' });
    expect(shape(events).slice(-3)).toEqual(['metrics', 'error', 'done']);
    // The echo model would have needed seconds for the whole answer: it was stopped.
    const shown = events
      .filter((e) => e.type === 'text')
      .map((e) => (e as { delta: string }).delta)
      .join('');
    expect(shown.length).toBeLessThan(ANSWER.length);
  });

  test('an unknown voice is an unknown_voice error naming the voices', async () => {
    const events: PipelineEvent[] = [];
    const result = await runTurn(context, {
      request: { prompt: 'Hello there, friend.', voice: 'xx_nobody' },
      emit: (e) => events.push(e),
    });
    expect(result.outcome).toBe('failed');
    expect(result.error).toMatchObject({
      code: 'unknown_voice',
      message: expect.stringMatching(/"xx_nobody".*af_heart/),
    });
    // Every voice, none cut off: the last of kokoro-js's list too.
    expect(result.error!.message).toContain('bm_lewis');
    expect(result.error!.message).not.toContain('...');
    expect(shape(events).slice(-3)).toEqual(['metrics', 'error', 'done']);
    expect(events.some((e) => e.type === 'audio')).toBe(false);
  });

  test('a blend of known voices passes to the container; one with an unknown voice is unknown_voice naming it', async () => {
    const blended = await runTurn(context, {
      request: { prompt: 'Hello there, friend.', voice: 'af_heart(2)+bf_emma(1)' },
      emit: () => {},
    });
    expect(blended.outcome).toBe('completed');
    const events: PipelineEvent[] = [];
    const result = await runTurn(context, {
      request: { prompt: 'Hello there, friend.', voice: 'af_heart(2)+xx_nobody' },
      emit: (e) => events.push(e),
    });
    expect(result.error).toMatchObject({
      code: 'unknown_voice',
      message: expect.stringMatching(
        /unknown voice "xx_nobody" in the blend "af_heart\(2\)\+xx_nobody"; available: .*bm_lewis/,
      ),
    });
    expect(events.some((e) => e.type === 'audio')).toBe(false);
  });

  test('no TTS endpoint: a tts_unavailable error, and the turn ends', async () => {
    const { result, events } = await turn('stream', { tts: new WebSocketTransport({ url: 'ws://127.0.0.1:1' }) });
    expect(result.error).toMatchObject({
      code: 'tts_unavailable',
      message: expect.stringMatching(/cannot open a TTS session/),
    });
    expect(events.at(-1)).toEqual({ type: 'done' });
  });

  test('an LLM failure is reported as its code after metrics', async () => {
    const fake = await startFakeOpenAI();
    try {
      const llm = new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' });
      fake.failNext(400, { error: { message: 'context too long' } });
      const { result, events } = await turn('stream', { llm });
      expect(result.error).toMatchObject({
        code: 'llm_error',
        message: expect.stringMatching(/HTTP 400.*context too long/),
      });
      expect(shape(events)).toEqual(['start', 'metrics', 'error', 'done']);
    } finally {
      await fake.close();
    }
  });
});
