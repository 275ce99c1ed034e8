// The plugin inside LiveKit's own voice pipeline: an AgentSession with LiveKit's FakeLLM (its test
// helper) and this TTS on the real container through the local SageMaker router, played into an
// audio output that records what it is given. What an agent built on it hears and reports.
import { describe, expect, test } from '@jest/globals';
import { voice } from '@livekit/agents';
import type { metrics } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { SentenceSegmenter } from '@kokoro-speech/runtime/text';
import { TTS } from './index.ts';
import { spokenText } from './spoken-text.ts';
import { containerAudio, framesPcm, quietLiveKit, routerIdle, until } from './testing/stand-in.ts';
import { useStandIn } from './testing/use-stand-in.ts';

/** An audio sink that plays instantly: it records the frames and reports each segment played. */
class RecordingOutput extends voice.AudioOutput {
  readonly frames: AudioFrame[] = [];
  #seconds = 0;

  constructor() {
    super(24000);
  }

  override async captureFrame(frame: AudioFrame): Promise<void> {
    const segments = this.capturedPlayoutSegments;
    await super.captureFrame(frame);
    this.frames.push(frame);
    this.#seconds += frame.samplesPerChannel / frame.sampleRate;
    if (this.capturedPlayoutSegments > segments) this.onPlaybackStarted(Date.now());
  }

  override flush(): void {
    super.flush();
    if (this.pendingPlayoutSegments > 0)
      this.onPlaybackFinished({ playbackPosition: this.#seconds, interrupted: false });
  }

  clearBuffer(): void {
    if (this.pendingPlayoutSegments > 0) this.onPlaybackFinished({ playbackPosition: 0, interrupted: true });
  }
}

quietLiveKit();
const standIn = useStandIn({}, { durations: true });

describe('AgentSession with this TTS', () => {
  const reply = 'Hello from the fake model, speaking through Kokoro. It runs on the stand-in model here!';
  const segmenter = new SentenceSegmenter();
  const sentences = [...segmenter.push(reply), ...segmenter.flush()]; // the first may end at a clause

  test("the reply is heard whole, as the container speaks it, and LiveKit's metrics report it", async () => {
    const kokoro = new TTS({ ...standIn().modes.sagemaker, voice: 'af_heart' });
    const llm = new voice.testing.FakeLLM([{ input: 'hello', content: reply, duration: 500 }]);
    const session = new voice.AgentSession({ llm, tts: kokoro });
    const output = new RecordingOutput();
    session.output.audio = output;
    const collected: metrics.AgentMetrics[] = [];
    session.on(voice.AgentSessionEventTypes.MetricsCollected, (e) => collected.push(e.metrics));
    const said: { text: string; interrupted: boolean }[] = [];
    session.on(voice.AgentSessionEventTypes.ConversationItemAdded, (e) => {
      if (e.item.type === 'message' && e.item.role === 'assistant')
        said.push({ text: e.item.textContent ?? '', interrupted: !!e.item.interrupted });
    });
    await session.start({ agent: new voice.Agent({ instructions: 'test' }) });
    try {
      await session.generateReply({ userInput: 'hello' }).waitForPlayout();
      const reference = await containerAudio(
        standIn().container,
        sentences.map((s) => spokenText(s, true).spoken),
        { voice: 'af_heart' },
      );
      expect(framesPcm(output.frames).equals(Buffer.concat(reference))).toBe(true);
      expect(said).toEqual([{ text: reply, interrupted: false }]);
      await until(() => collected.some((m) => m.type === 'tts_metrics'), 5000, "the TTS's metrics");
      const ttsMetrics = collected.filter((m): m is metrics.TTSMetrics => m.type === 'tts_metrics');
      expect(ttsMetrics).toHaveLength(1);
      expect(ttsMetrics[0]).toMatchObject({ label: 'kokoro.TTS', charactersCount: reply.length, streamed: true });
      expect(ttsMetrics[0]!.ttfbMs).toBeGreaterThanOrEqual(0);
    } finally {
      await session.close();
      await kokoro.close();
    }
  });

  test('an interruption (barge-in) closes the stream: no frame after it, the endpoint stream ends', async () => {
    const kokoro = new TTS({ ...standIn().modes.sagemaker, voice: 'af_heart' });
    const long = Array.from({ length: 8 }, (_, i) => `Sentence ${i + 1} of a long answer goes on for a while.`).join(
      ' ',
    );
    const llm = new voice.testing.FakeLLM([{ input: 'talk', content: long, duration: 200 }]);
    const session = new voice.AgentSession({ llm, tts: kokoro });
    const output = new RecordingOutput();
    session.output.audio = output;
    await session.start({ agent: new voice.Agent({ instructions: 'test' }) });
    try {
      const handle = session.generateReply({ userInput: 'talk' });
      await until(() => output.frames.length > 0, 10_000, 'the first frame');
      await session.interrupt();
      const heard = output.frames.length;
      await handle.waitForPlayout();
      expect(handle.interrupted).toBe(true);
      await routerIdle(standIn());
      await new Promise((r) => setTimeout(r, 200));
      expect(output.frames.length).toBe(heard);
      const all = await containerAudio(standIn().container, [long], { voice: 'af_heart' });
      expect(framesPcm(output.frames).length).toBeLessThan(all[0]!.length);
    } finally {
      await session.close();
      await kokoro.close();
    }
  });
});
