// Voice turns end to end on loopback: a caller's microphone (espeak-ng speech made at test time)
// -> the agent's WebSocket -> Silero VAD -> the `local` provider's offline stand-in or the
// `openai` provider against its transcription stand-in -> the echo LLM (the answer repeats what
// was heard) -> the Kokoro container on the tiny model -> audio back.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { turnEventSchema } from '@kokoro-speech/protocol';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from '../server/app.ts';
import { startTestContainer, textOf, type TestContainer } from '../testing/harness.ts';
import { WsCaller } from '../testing/turn-clients.ts';
import { concatPcm, silence, speak } from '../testing/spoken-audio.ts';
import { sendPcm } from '../testing/voice-frames.ts';
import { startFakeTranscriptionServer, type FakeTranscriptionServer } from '../testing/fake-transcription-server.ts';
import { SileroVad } from '../stt/silero-vad.ts';
import { createOfflineSpeechToText } from '../stt/offline.ts';
import { createOpenAISpeechToText } from '../stt/openai.ts';
import type { SpeechToText } from '../stt/types.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import type { VoiceOptions } from './voice-options.ts';

let container: TestContainer;
let question: Int16Array;
const agents: AgentServer[] = [];
const fakes: FakeTranscriptionServer[] = [];

beforeAll(async () => {
  container = await startTestContainer();
  question = await speak('What time does the library open on Sundays?');
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await Promise.all(fakes.map((f) => f.close()));
  await container?.close();
});

async function voiceAgent(stt: SpeechToText, options: Partial<VoiceOptions> = {}, extra = {}) {
  const server = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    voice: { stt, createVad: () => SileroVad.load(), options: { endOfTurnMs: 400, ...options } },
    ...extra,
  });
  agents.push(server);
  return server;
}

const ofType = <T extends string>(events: PipelineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Extract<PipelineEvent, { type: T }>[];
const finals = (events: PipelineEvent[]) =>
  (events as { type: string; final?: boolean; text?: string }[]).filter((e) => e.type === 'transcript' && e.final);
const count =
  (type: string, n = 1) =>
  (events: PipelineEvent[]) =>
    events.filter((e) => e.type === type).length >= n;

/** The customer says `pcm` after a short silence and then stays silent long enough to end the turn. */
const utterance = (pcm: Int16Array) => concatPcm(silence(300), pcm, silence(1200));

describe.each([
  [
    'local (offline stand-in)',
    () => Promise.resolve(createOfflineSpeechToText()),
    /^Offline stand-in heard \d\.\d seconds of speech\.$/,
  ],
  [
    'openai (transcription stand-in)',
    async () => {
      const fake = await startFakeTranscriptionServer([{ text: 'What time does the library open on Sundays?' }]);
      fakes.push(fake);
      return createOpenAISpeechToText({ baseURL: fake.baseURL, model: 'whisper-1' });
    },
    /^What time does the library open on Sundays\?$/,
  ],
])('over %s', (_name, makeStt, heard) => {
  test('two spoken turns: transcripts, then answers exactly as for typed prompts; listen_end counts them', async () => {
    const server = await voiceAgent(await makeStt());
    const caller = await WsCaller.connect(server.wsUrl);
    try {
      caller.send({ type: 'listen', input: { format: 'pcm_s16le', sample_rate: 16000 } });
      await caller.until(count('listening'));
      await sendPcm(caller.ws, utterance(question));
      await caller.until(count('done'));
      await sendPcm(caller.ws, utterance(question));
      await caller.until(count('done', 2));
      caller.send({ type: 'listen_end' });
      const events = await caller.until(count('listen_end'));
      for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
      const said = finals(events).map((e) => e.text!);
      expect(said).toHaveLength(2);
      for (const text of said) expect(text).toMatch(heard);
      // The stand-in names the length it was given: all the speech, though it came faster than the VAD.
      for (const seconds of said.map((t) => /heard (\d\.\d) seconds/.exec(t)?.[1]).filter((x) => x))
        expect(Math.abs(Number(seconds) - question.length / 16_000)).toBeLessThan(0.6);
      // Each answer repeats what was heard, in a turn like a typed one.
      for (const n of [0, 1]) {
        const turn = caller.turn(n).filter((e) => e.type !== 'transcript' && e.type !== 'listening');
        expect(turn[0]?.type).toBe('start');
        expect(textOf(turn)).toBe(said[n]);
        expect(ofType(turn, 'sentence').length).toBeGreaterThan(0);
        expect(turn.at(-1)).toEqual({ type: 'done' });
      }
      expect(events.at(-1)).toEqual({ type: 'listen_end', turns: 2 });
      // Partial transcripts came first, never as final.
      const firstFinal = events.findIndex((e) => e.type === 'transcript' && (e as { final: boolean }).final);
      expect(events.findIndex((e) => e.type === 'start')).toBeGreaterThan(firstFinal);
    } finally {
      caller.close();
    }
  });
});
