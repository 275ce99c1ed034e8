// Preemptive generation end to end on loopback (VOICE_PREEMPTIVE): a caller's speech (espeak-ng)
// -> the agent's WebSocket -> Silero VAD -> the Transcribe provider through the official client
// against the Transcribe streaming stand-in (scripted partials with stable words, then a final)
// -> the LLM stand-in at the wire (OpenAI chat completions) -> Kokoro's tiny model. Orders of
// events, not times: the audio after the stable partial is held back until the LLM request came.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY } from '@kokoro-speech/sagemaker/router';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from '../server/app.ts';
import { startTestContainer, textOf, type TestContainer } from '../testing/harness.ts';
import { WsCaller } from '../testing/turn-clients.ts';
import { concatPcm, silence, speak } from '../testing/spoken-audio.ts';
import { sendPcm } from '../testing/voice-frames.ts';
import { startFakeTranscribeStreaming, type TranscribeStep } from '../testing/fake-transcribe-streaming.ts';
import { startFakeLlm } from '../testing/fake-llm-provider.ts';
import type { FakeLlmOptions } from '../testing/fake-llm-servers.ts';
import { SileroVad } from '../stt/silero-vad.ts';
import { createTranscribeSpeechToText } from '../stt/transcribe.ts';
import { newSessionId } from '../conversation/session-id.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';

const VARIABLES = ['AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
const closing: { close(): Promise<void> }[] = [];
let container: TestContainer;
let question: Int16Array;
/** Seconds of audio at which the speech ends (a lead of silence, then the question). */
let speechEnd: number;

beforeAll(async () => {
  process.env.AWS_REGION = 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID = LOCAL_ACCESS_KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_SECRET_ACCESS_KEY;
  container = await startTestContainer();
  question = await speak('What time does the library open?');
  speechEnd = 0.3 + question.length / 16_000;
});
afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await container?.close();
  for (const [v, value] of Object.entries(saved))
    if (value === undefined) delete process.env[v];
    else process.env[v] = value;
});

async function setUp(steps: TranscribeStep[], llm: FakeLlmOptions) {
  const transcribe = await startFakeTranscribeStreaming({ script: () => ({ steps }) });
  closing.push(transcribe);
  process.env.AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING = transcribe.url;
  const stt = createTranscribeSpeechToText();
  closing.push({ close: () => stt.close() });
  const { fake, provider } = await startFakeLlm('openai', llm);
  closing.push(fake);
  const server: AgentServer = await startAgentServer({
    llm: provider,
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    voice: { stt, createVad: () => SileroVad.load(), options: { endOfTurnMs: 400, preemptive: true } },
  });
  closing.push(server);
  const caller = await WsCaller.connect(server.wsUrl);
  closing.push({ close: async () => caller.close() });
  const sessionId = newSessionId('preemptive-test');
  caller.send({ type: 'listen', session_id: sessionId, input: { format: 'pcm_s16le', sample_rate: 16000 } });
  await caller.until((events) => events.some((e) => e.type === 'listening'));
  return { fake, server, caller, sessionId };
}

/** A promise of the n-th LLM request (1-based), resolved from the stand-in's reply script. */
function requests() {
  const arrived: (() => void)[] = [];
  const waits = [1, 2, 3].map(() => new Promise<void>((resolve) => arrived.push(resolve)));
  let n = 0;
  return { nth: (i: number) => waits[i - 1]!, seen: () => arrived[n++]?.() };
}

const finalOf = (events: PipelineEvent[]) =>
  (events as { type: string; final?: boolean; text?: string }[]).find((e) => e.type === 'transcript' && e.final);
const done = (events: PipelineEvent[]) => events.some((e) => e.type === 'done');

test('the final equals the stable partial: the LLM answers before the turn ends, and that answer is the turn', async () => {
  const heard = 'What time does the library open?';
  const llm = requests();
  const { fake, caller } = await setUp(
    [
      { atSeconds: speechEnd - 0.8, partial: 'What time does', stableWords: 2 },
      { atSeconds: speechEnd + 0.1, partial: heard, stableWords: 7 },
      { atSeconds: speechEnd + 1.6, final: heard },
    ],
    { reply: (r) => (llm.seen(), { text: `You asked: ${r.lastUserText}` }) },
  );
  const audio = concatPcm(silence(300), question, silence(3000));
  const held = Math.round((speechEnd + 1.2) * 16_000);
  // The speech and a second of silence: the VAD's end of speech, the stable partial, no final yet.
  await sendPcm(caller.ws, audio.subarray(0, held));
  await llm.nth(1);
  expect(finalOf(caller.events)).toBeUndefined(); // the LLM request came before the final transcript
  await sendPcm(caller.ws, audio.subarray(held));
  const events = await caller.until(done);
  expect(finalOf(events)?.text).toBe(heard);
  expect(fake.requests).toHaveLength(1); // the turn adopted the early answer: no second request
  expect(textOf(events)).toBe(`You asked: ${heard}`);
  const final = events.findIndex((e) => e.type === 'transcript' && e.final);
  expect(events.findIndex((e) => e.type === 'start')).toBeGreaterThan(final);
});

test('the final differs: the early answer is aborted and appears nowhere, neither in events nor in the history', async () => {
  const partial = 'What time does the library';
  const heard = 'What time does the library open?';
  const llm = requests();
  const { fake, server, caller, sessionId } = await setUp(
    [
      { atSeconds: speechEnd + 0.1, partial, stableWords: 5 },
      { atSeconds: speechEnd + 1.6, final: heard },
    ],
    {
      chunkDelayMs: 5,
      reply: (r) => (llm.seen(), { text: r.lastUserText === partial ? 'DISCARDED early answer.' : 'Kept answer.' }),
    },
  );
  fake.breakNext({ kind: 'stall', afterChunks: 2 }); // the early answer is still coming when it is discarded
  const audio = concatPcm(silence(300), question, silence(3000));
  const held = Math.round((speechEnd + 1.2) * 16_000);
  await sendPcm(caller.ws, audio.subarray(0, held));
  await llm.nth(1);
  await sendPcm(caller.ws, audio.subarray(held));
  await fake.clientGone(); // the early request was aborted
  const events = await caller.until(done);
  expect(finalOf(events)?.text).toBe(heard);
  expect(textOf(events)).toBe('Kept answer.');
  expect(JSON.stringify(events.filter((e) => e.type !== 'audio'))).not.toContain('DISCARDED');
  expect(fake.requests).toHaveLength(2);
  // The answer's request carried none of the early one: its prompt only.
  const second = fake.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  expect(second.messages.filter((m) => m.role !== 'system')).toHaveLength(1);
  const history = JSON.stringify(await server.sessions.peek(sessionId)!.messages());
  expect(history).not.toContain('DISCARDED');
  expect(history).not.toContain(`"${partial}"`);
  expect(history).toContain('Kept answer.');
});
