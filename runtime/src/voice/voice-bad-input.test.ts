// Voice sessions given bad input, barge-in by voice: each a clear `error` event naming the cause,
// and the session and the server keep serving. Real Silero VAD, the openai provider against its
// transcription stand-in (scripted replies: refusals, stalls), the echo LLM, the tiny Kokoro model.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer, type AgentServerOptions } from '../server/app.ts';
import { startTestContainer, type TestContainer } from '../testing/harness.ts';
import { WsCaller } from '../testing/turn-clients.ts';
import { concatPcm, silence, speak } from '../testing/spoken-audio.ts';
import { pcmFrames, sendPcm } from '../testing/voice-frames.ts';
import {
  startFakeTranscriptionServer,
  type FakeTranscriptionServer,
  type TranscriptionReply,
} from '../testing/fake-transcription-server.ts';
import { SileroVad } from '../stt/silero-vad.ts';
import { createOpenAISpeechToText } from '../stt/openai.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import type { VoiceOptions } from './voice-options.ts';

let container: TestContainer;
let question: Int16Array;
let yes: Int16Array;
const agents: AgentServer[] = [];
const fakes: FakeTranscriptionServer[] = [];

beforeAll(async () => {
  container = await startTestContainer();
  question = await speak('Could you tell me about the opening hours?');
  yes = await speak('Yes.');
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await Promise.all(fakes.map((f) => f.close()));
  await container?.close();
});

async function voiceAgent(
  replies: TranscriptionReply[],
  options: Partial<VoiceOptions> = {},
  extra: Partial<AgentServerOptions> = {},
) {
  const fake = await startFakeTranscriptionServer(replies);
  fakes.push(fake);
  const server = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    voice: {
      stt: createOpenAISpeechToText({ baseURL: fake.baseURL, model: 'whisper-1' }),
      createVad: () => SileroVad.load(),
      options: { endOfTurnMs: 400, ...options },
    },
    ...extra,
  });
  agents.push(server);
  return { server, fake };
}

const count =
  (type: string, n = 1) =>
  (events: PipelineEvent[]) =>
    events.filter((e) => e.type === type).length >= n;
const errors = (events: PipelineEvent[]) =>
  events.filter((e) => e.type === 'error') as { type: 'error'; code: string; message: string }[];
const lastError = (code: string) => (events: PipelineEvent[]) => errors(events).some((e) => e.code === code);
const utterance = (pcm: Int16Array) => concatPcm(silence(300), pcm, silence(1200));

async function listening(server: AgentServer, listen: Record<string, unknown> = {}): Promise<WsCaller> {
  const caller = await WsCaller.connect(server.wsUrl);
  caller.send({ type: 'listen', ...listen });
  await caller.until(count('listening'));
  return caller;
}

test('refused before a session: audio before listen (told once), no STT, a second listen', async () => {
  const plain = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
  });
  agents.push(plain);
  const caller = await WsCaller.connect(plain.wsUrl);
  for (const frame of pcmFrames(question.subarray(0, 16000))) caller.ws.send(frame, { binary: true });
  caller.send({ type: 'listen' });
  const events = await caller.until(lastError('stt_unavailable'));
  expect(errors(events).map((e) => e.code)).toEqual(['audio_before_listen', 'stt_unavailable']);
  expect(errors(events)[0]!.message).toMatch(/after \{"type":"listen"\}/);
  caller.close();

  const { server } = await voiceAgent([{ text: 'Hi.' }]);
  const twice = await listening(server);
  twice.send({ type: 'listen' });
  expect(errors(await twice.until(lastError('invalid_request')))[0]!.message).toMatch(/already open/);
  twice.close();
});

test('frames not in the declared format, audio too fast, silence only: each named, the session goes on', async () => {
  const { server } = await voiceAgent([{ text: 'Opening hours, please.' }], { maxAheadMs: 2000, noSpeechMs: 1000 });
  const caller = await listening(server);
  caller.ws.send(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(40)]), { binary: true });
  caller.ws.send(Buffer.alloc(321), { binary: true });
  caller.ws.send(Buffer.from(JSON.stringify({ type: 'listen_end' })), { binary: true });
  // Four seconds of silence at once: two of them are refused (too far ahead of real time).
  await sendPcm(caller.ws, silence(4000));
  const events = await caller.until(lastError('no_speech'));
  const told = errors(events);
  // Told once per run of refused frames (not once a frame: ~100 were refused); a frame the agent
  // caught up enough to take in the middle may start a second run, so repeats next to each other fold.
  const fast = told.filter((e) => e.code === 'audio_too_fast').length;
  expect(fast).toBeGreaterThanOrEqual(1);
  expect(fast).toBeLessThanOrEqual(3);
  expect(told.map((e) => e.code).filter((code, i, all) => code !== 'audio_too_fast' || all[i - 1] !== code)).toEqual([
    'audio_format',
    'audio_format',
    'audio_format',
    'audio_too_fast',
    'no_speech',
  ]);
  expect(told[0]!.message).toMatch(/WAV/);
  expect(told[1]!.message).toMatch(/321 bytes is not whole 16-bit samples/);
  expect(told[2]!.message).toMatch(/JSON message .*text frames/);
  // Still serving: real-time audio now gets its turn.
  await sendPcm(caller.ws, utterance(question), true);
  await caller.until(count('done'));
  caller.send({ type: 'listen_end' });
  expect((await caller.until(count('listen_end'))).at(-1)).toEqual({ type: 'listen_end', turns: 1 });
  caller.close();
});

test('listen_end after silence only: no_speech, then listen_end with no turn', async () => {
  const { server } = await voiceAgent([{ text: 'x' }]);
  const caller = await listening(server);
  await sendPcm(caller.ws, silence(1000));
  caller.send({ type: 'listen_end' });
  const events = await caller.until(count('listen_end'));
  expect(errors(events).map((e) => e.code)).toEqual(['no_speech']);
  expect(events.at(-1)).toEqual({ type: 'listen_end', turns: 0 });
  caller.close();
});

test('an STT that refuses (429) or stalls: stt_throttled, stt_timeout; the next utterance is answered', async () => {
  const { server, fake } = await voiceAgent(
    [{ status: 429, message: 'slow down' }, { stall: true }, { text: 'Third time lucky.' }],
    {
      sttTimeoutMs: 1500,
    },
  );
  const caller = await listening(server);
  await sendPcm(caller.ws, utterance(question));
  await caller.until(lastError('stt_throttled'));
  await sendPcm(caller.ws, utterance(question));
  await caller.until(lastError('stt_timeout'));
  await sendPcm(caller.ws, utterance(question));
  const events = await caller.until(count('done'));
  expect(events.find((e) => e.type === 'transcript' && (e as { final: boolean }).final)).toEqual({
    type: 'transcript',
    text: 'Third time lucky.',
    final: true,
  });
  expect(fake.requests).toHaveLength(3);
  caller.close();
});

test('a caller that hangs up mid-sentence: the server goes on serving', async () => {
  const { server } = await voiceAgent([{ text: 'Hello again.' }]);
  const gone = await listening(server);
  await sendPcm(gone.ws, concatPcm(silence(300), question.subarray(0, question.length / 2)));
  gone.close();
  const caller = await listening(server);
  await sendPcm(caller.ws, utterance(question));
  const events = await caller.until(count('done'));
  expect(events.at(-1)).toEqual({ type: 'done' });
  caller.close();
});

test('barge-in by voice cuts the answer; a sound shorter than the minimum does not; both counted in the metrics', async () => {
  const lines: Record<string, unknown>[] = [];
  const { server } = await voiceAgent(
    [{ text: 'Tell me a long story about the opening hours of every library in town.' }],
    { bargeInMinMs: 700 },
    {
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 4 }),
      observability: { metrics: { namespace: 'N', service: 'S', write: (l) => void lines.push(JSON.parse(l)) } },
    },
  );
  const caller = await listening(server, { session_id: 'voice-barge-in-session-0000000000000001' });
  await sendPcm(caller.ws, utterance(question));
  await caller.until(count('start'));
  // "Yes." over the answer: speech, but under 700 ms: no cut, and its words are not a turn.
  await sendPcm(caller.ws, utterance(yes), true);
  // A real interruption: cuts the answer at once, then is answered itself.
  await sendPcm(caller.ws, utterance(question));
  const events = await caller.until(count('done', 2));
  const dones = events.filter((e) => e.type === 'done');
  expect(dones[0]).toEqual({ type: 'done', cancelled: true });
  expect(events.filter((e) => e.type === 'start')).toHaveLength(2);
  const voiceLines = lines.filter((l) => 'BargeIns' in l);
  expect(voiceLines[0]).toMatchObject({ BargeIns: 1, VoiceEndOfSpeechToTranscriptMs: expect.any(Number) });
  caller.close();
});
