import { voice } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { TTS } from './src/index.ts';
import { quietLiveKit, startStandIn } from './src/testing/stand-in.ts';
process.on('unhandledRejection', (e) => console.log('UNHANDLED', (e as Error).stack));
class RecordingOutput extends voice.AudioOutput {
  frames: AudioFrame[] = [];
  s = 0;
  constructor() {
    super(24000);
  }
  override async captureFrame(frame: AudioFrame) {
    const n = this.capturedPlayoutSegments;
    await super.captureFrame(frame);
    this.frames.push(frame);
    this.s += frame.samplesPerChannel / 24000;
    if (this.capturedPlayoutSegments > n) this.onPlaybackStarted(Date.now());
  }
  override flush() {
    super.flush();
    console.log('flush');
    if (this.pendingPlayoutSegments > 0) this.onPlaybackFinished({ playbackPosition: this.s, interrupted: false });
  }
  clearBuffer() {
    if (this.pendingPlayoutSegments > 0) this.onPlaybackFinished({ playbackPosition: 0, interrupted: true });
  }
}
quietLiveKit();
const s = await startStandIn();
const kokoro = new TTS({ ...s.modes.sagemaker, voice: 'af_heart' });
const origStream = kokoro.stream.bind(kokoro);
(kokoro as any).stream = (o: any) => {
  const st = origStream(o);
  const p = st.pushText.bind(st);
  (st as any).pushText = (t: string) => {
    console.log('push', JSON.stringify(t));
    p(t);
  };
  return st;
};
const reply = 'Hello from the fake model, speaking through Kokoro. It runs on the stand-in model here!';
const llm = new voice.testing.FakeLLM([{ input: 'hello', content: reply, duration: 500 }]);
const session = new voice.AgentSession({ llm, tts: kokoro });
const out = new RecordingOutput();
session.output.audio = out;
await session.start({ agent: new voice.Agent({ instructions: 'test' }) });
console.log('started');
await session.generateReply({ userInput: 'hello' }).waitForPlayout();
console.log('played', out.frames.length, out.frames.map((f) => f.sampleRate + '/' + f.samplesPerChannel).slice(0, 5));
await session.close();
console.log('closed');
await kokoro.close();
await s.close();
