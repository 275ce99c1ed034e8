// One trace per turn, across the three legs, seen by an OTLP/HTTP receiver in this process: the
// agent (in process, tracing on) -> the real Kokoro container (its own process, stand-in model,
// tracing on through OTEL_*) -> SSE and WebSocket callers. The container's utterance spans share the
// agent's trace id and have the agent's sentence span of the same utterance as parent.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTracing, type Tracing } from '@kokoro-speech/protocol/observability';
import { OtlpReceiver, type ReceivedSpan } from '@kokoro-speech/protocol/otlp-receiver';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { ContainerProcess } from '../testing/container-process.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { until } from '../testing/harness.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { startRefusingGate } from '../testing/refusing-gate.ts';
import { createServer, type AddressInfo } from 'node:net';

const TOOL_PROMPT =
  'Let me work that out for you, one moment. <tool name="calculate">{"expression": "2 + 3"}</tool> It is {result}. That is all.';
const LONG_PROMPT = 'Streaming speech starts speaking early, because the first clause is spoken at once. '.repeat(12);
const BATCH = { OTEL_BSP_SCHEDULE_DELAY: '20' };
const warnings: string[] = [];
const metricLines: Record<string, unknown>[] = [];

let receiver: OtlpReceiver;
let container: ContainerProcess;
let tracing: Tracing;
let agent: AgentServer;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  container = await ContainerProcess.start({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...BATCH });
  tracing = startTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...BATCH },
    { serviceName: 'kokoro-agent', warn: (m) => void warnings.push(m) },
  );
  agent = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 400 }),
    tts: new WebSocketTransport({ url: container.wsUrl }),
    tools: { builtin: ['calculate'] },
    observability: {
      tracer: tracing.tracer,
      metrics: {
        namespace: 'KokoroSpeech',
        service: 'kokoro-agent',
        write: (l) => void metricLines.push(JSON.parse(l)),
      },
    },
  });
}, 90_000);

afterAll(async () => {
  await agent?.close();
  await tracing?.shutdown();
  await container?.close();
  await receiver?.close();
  expect(warnings).toEqual([]);
});

const requestIdOf = (events: PipelineEvent[]) =>
  (events.find((e) => e.type === 'start') as { request_id: string } | undefined)!.request_id;

/**
 * The trace of the turn `requestId` once complete: its turn span, and a container utterance span
 * for each sentence whose audio ended.
 */
async function traceOf(requestId: string): Promise<{ turn: ReceivedSpan; spans: ReceivedSpan[] }> {
  const turnOf = (spans: readonly ReceivedSpan[]) =>
    spans.find((s) => s.name === 'kokoro.turn' && s.attributes['kokoro.turn.request_id'] === requestId);
  const complete = (spans: readonly ReceivedSpan[]) => {
    const turn = turnOf(spans);
    if (!turn) return false;
    const inTrace = spans.filter((s) => s.traceId === turn.traceId);
    const spoken = inTrace.filter((s) => s.name === 'kokoro.sentence' && s.events.some((e) => e.name === 'last_audio'));
    const utterances = inTrace.filter((s) => s.name === 'kokoro.utterance');
    return utterances.length >= spoken.length;
  };
  await tracing.flush();
  const spans = await receiver.waitFor(complete, 15_000);
  const turn = turnOf(spans)!;
  return { turn, spans: spans.filter((s) => s.traceId === turn.traceId) };
}

/** The checks every turn's trace passes: its spans, how they nest, and the container's leg under the sentences. */
function checkTrace(turn: ReceivedSpan, spans: ReceivedSpan[]) {
  const agentSpans = spans.filter((s) => s.service === 'kokoro-agent');
  const ids = new Set(agentSpans.map((s) => s.spanId));
  // One root per turn (no caller traceparent here): everything else hangs below it.
  expect(spans.filter((s) => s.parentSpanId === undefined)).toEqual([turn]);
  for (const s of agentSpans) if (s !== turn) expect(ids.has(s.parentSpanId!)).toBe(true);

  const sentences = spans.filter((s) => s.name === 'kokoro.sentence');
  expect(sentences.length).toBeGreaterThan(0);
  for (const s of sentences) expect(s.parentSpanId).toBe(turn.spanId);
  const connect = spans.filter((s) => s.name === 'tts.connect');
  expect(connect[0]).toMatchObject({
    parentSpanId: turn.spanId,
    attributes: { 'kokoro.tts.why': 'open', 'kokoro.tts.result': 'ready' },
  });

  // The container's leg: under the agent's sentence span of the same utterance.
  const utterances = spans.filter((s) => s.name === 'kokoro.utterance');
  for (const u of utterances) {
    expect(u.service).toBe('kokoro-tts');
    const sentence = sentences.find((s) => s.spanId === u.parentSpanId);
    expect(sentence).toBeDefined();
    expect(u.attributes['kokoro.utterance.id']).toBe(sentence!.attributes['kokoro.sentence.id']);
    const stages = spans.filter((s) => s.parentSpanId === u.spanId).map((s) => s.name);
    expect(stages).toEqual(
      expect.arrayContaining(['kokoro.queue_wait', 'kokoro.prep', 'kokoro.schedule_wait', 'kokoro.synthesis']),
    );
  }
  return { sentences, utterances };
}

const eventNames = (s: ReceivedSpan) => s.events.map((e) => e.name);

describe('a trace per turn, across agent and container', () => {
  test('SSE: the turn span, Strands’ agent and model spans, sentences with their stages, the tool, the container’s utterances', async () => {
    const { events } = await sseTurn(agent.url, { prompt: TOOL_PROMPT });
    expect(events.at(-1)).toEqual({ type: 'done' });
    const { turn, spans } = await traceOf(requestIdOf(events));
    expect(turn.attributes).toMatchObject({
      'kokoro.turn.transport': 'sse',
      'kokoro.tts.transport': 'websocket',
      'kokoro.voice': 'af_heart',
      'kokoro.format': 'pcm_s16le',
      'kokoro.turn.outcome': 'done',
      'kokoro.tts.refusals': 0,
      'kokoro.language': 'en-us', // the voice's, from the container's voice_info
    });
    expect(eventNames(turn)).toContain('first_token');
    const { sentences, utterances } = checkTrace(turn, spans);

    const spoken = events.filter((e) => e.type === 'sentence_end').length;
    expect(sentences).toHaveLength(spoken);
    expect(utterances).toHaveLength(spoken);
    for (const s of sentences) {
      expect(eventNames(s)).toEqual(['text_done', 'sent', 'first_audio', 'last_audio']);
      expect(s.attributes['kokoro.sentence.characters']).toBeGreaterThan(0);
      expect(s.attributes['kokoro.sentence.audio_ms']).toBeGreaterThan(0);
    }
    // The tool call, and Strands' own spans nested under the turn span.
    expect(spans.find((s) => s.name === 'kokoro.tool')).toMatchObject({
      parentSpanId: turn.spanId,
      attributes: { 'kokoro.tool.name': 'calculate' },
    });
    const strandsAgent = spans.find((s) => s.name.startsWith('invoke_agent'));
    expect(strandsAgent?.parentSpanId).toBe(turn.spanId);
    expect(spans.some((s) => s.name === 'chat')).toBe(true);
    // Its metrics line (the turn is finished once its trace is: the line was written before).
    expect(metricLines.at(-1)).toMatchObject({ Service: 'kokoro-agent', Turns: 1, Interruptions: 0, CallerDrops: 0 });
    expect(metricLines.at(-1)!.SentenceToAudio).toHaveLength(spoken);
  }, 60_000);

  test('WebSocket: the same trace shape, transport websocket, the session id on the turn span', async () => {
    const caller = await WsCaller.connect(agent.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: 'A WebSocket turn. It has two sentences.' });
      const events = await caller.until((e) => e.some((x) => x.type === 'done'));
      const start = events.find((e) => e.type === 'start') as { session_id?: string };
      const { turn, spans } = await traceOf(requestIdOf(events));
      expect(turn.attributes).toMatchObject({ 'kokoro.turn.transport': 'websocket', 'kokoro.turn.outcome': 'done' });
      expect(turn.attributes['session.id']).toBe(start.session_id);
      const { utterances } = checkTrace(turn, spans);
      expect(utterances).toHaveLength(events.filter((e) => e.type === 'sentence_end').length);
    } finally {
      caller.close();
    }
  }, 60_000);

  test('an interrupted turn: outcome cancelled, the cut span, unheard sentences ended as cut', async () => {
    const caller = await WsCaller.connect(agent.wsUrl);
    try {
      caller.send({ type: 'prompt', prompt: LONG_PROMPT });
      await caller.until((e) => e.some((x) => x.type === 'audio'));
      caller.send({ type: 'cancel' });
      const events = await caller.until((e) => e.some((x) => x.type === 'done'));
      expect(events.at(-1)).toEqual({ type: 'done', cancelled: true });
      const { turn, spans } = await traceOf(requestIdOf(events));
      expect(turn.attributes['kokoro.turn.outcome']).toBe('cancelled');
      const cut = spans.find((s) => s.name === 'kokoro.turn.cut');
      expect(cut?.parentSpanId).toBe(turn.spanId);
      expect(cut?.attributes['kokoro.cut.reason']).toBe('cancelled by the caller');
      const { sentences } = checkTrace(turn, spans);
      expect(sentences.some((s) => s.attributes['kokoro.sentence.cut'] === true)).toBe(true);
      // A barge-in: an interruption, not a caller drop (the socket is still open).
      await until(() => metricLines.at(-1)?.Interruptions === 1);
      expect(metricLines.at(-1)).toMatchObject({ Interruptions: 1, CallerDrops: 0 });
    } finally {
      caller.close();
    }
  }, 60_000);

  test("a caller's traceparent header joins its trace; a malformed one is ignored (a new trace)", async () => {
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const joined = await sseTurn(agent.url, { prompt: 'Joined.' }, { headers: { traceparent: parent } });
    const fresh = await sseTurn(agent.url, { prompt: 'Fresh.' }, { headers: { traceparent: 'garbage-00-zz' } });
    await tracing.flush();
    const spans = await receiver.waitFor(
      (all) =>
        [joined, fresh].every((t) =>
          all.some((s) => s.name === 'kokoro.turn' && s.attributes['kokoro.turn.request_id'] === requestIdOf(t.events)),
        ),
      15_000,
    );
    const turnOf = (events: PipelineEvent[]) =>
      spans.find((s) => s.name === 'kokoro.turn' && s.attributes['kokoro.turn.request_id'] === requestIdOf(events))!;
    expect(turnOf(joined.events)).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentSpanId: '00f067aa0ba902b7',
    });
    expect(turnOf(fresh.events).parentSpanId).toBeUndefined();
    expect(fresh.events.at(-1)).toEqual({ type: 'done' });
  }, 60_000);

  test('a caller that hangs up mid-turn: the turn span ends cancelled, the metrics count a caller drop', async () => {
    const controller = new AbortController();
    const before = metricLines.length;
    const { events } = await sseTurn(
      agent.url,
      { prompt: LONG_PROMPT },
      { controller, onEvent: (e) => void (e.type === 'audio' && controller.abort()) },
    );
    const { turn } = await traceOf(requestIdOf(events));
    expect(turn.attributes['kokoro.turn.outcome']).toBe('cancelled');
    await until(() => metricLines.length > before);
    expect(metricLines.at(-1)).toMatchObject({ Turns: 1, Interruptions: 1, CallerDrops: 1 });
  }, 60_000);
});

describe('a collector that cannot be reached', () => {
  test('turns go on; one warning for all of them', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const lost: string[] = [];
    const unreachable = startTracing(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '300', ...BATCH },
      { serviceName: 'kokoro-agent', warn: (m) => void lost.push(m), register: false },
    );
    const cut = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 400 }),
      tts: new WebSocketTransport({ url: container.wsUrl }),
      observability: { tracer: unreachable.tracer },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const { events } = await sseTurn(cut.url, { prompt: `Turn ${i} goes on. It is spoken.` });
        expect(events.at(-1)).toEqual({ type: 'done' });
        expect(events.filter((e) => e.type === 'sentence_end')).toHaveLength(2);
        await unreachable.flush();
      }
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatch(/cannot export traces to .*: turns go on/);
    } finally {
      await cut.close();
      await unreachable.shutdown();
    }
  }, 60_000);
});

describe('the TTS session in the trace', () => {
  test('a refused session: the refused try and the retry that got in, counted on the turn and in the metrics', async () => {
    const gate = await startRefusingGate(container.port);
    const refusing = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 400 }),
      tts: new WebSocketTransport({ url: `ws://127.0.0.1:${gate.port}` }),
      observability: {
        tracer: tracing.tracer,
        metrics: { namespace: 'N', service: 'S', write: (l) => void metricLines.push(JSON.parse(l)) },
      },
    });
    try {
      gate.refuseNext(1);
      const { events } = await sseTurn(refusing.url, { prompt: 'Refused once, then spoken.' });
      expect(events.at(-1)).toEqual({ type: 'done' });
      expect(gate.refused).toBe(1);
      const { turn, spans } = await traceOf(requestIdOf(events));
      const tries = spans
        .filter((s) => s.name === 'tts.connect')
        .sort((a, b) => a.startMs - b.startMs)
        .map((s) => [s.attributes['kokoro.tts.why'], s.attributes['kokoro.tts.result'], s.status]);
      expect(tries).toEqual([
        ['open', 'refused', 'error'],
        ['retry', 'ready', 'unset'],
      ]);
      expect(turn.attributes).toMatchObject({ 'kokoro.tts.refusals': 1, 'kokoro.tts.retries': 1 });
      expect(metricLines.at(-1)).toMatchObject({ Service: 'S', TtsRefusals: 1, Turns: 1 });
    } finally {
      await refusing.close();
      await gate.close();
    }
  }, 60_000);
});
