// Voice to voice on the stand-ins (node --expose-gc runtime/bench/voice-to-voice.ts; docs/benchmarks/
// voice-to-voice.md): a caller speaks espeak-ng speech into a voice session in real time, and the
// time from the end of its speech to the first audio of the answer is split into endpointing (end
// of speech -> final transcript: the VAD's end of speech and the end-of-turn silence), LLM first
// sentence and TTS first audio. The stand-ins: the local STT's offline stand-in (answers at once),
// the echo LLM (first token at once), Kokoro's tiny stand-in model. Their floors are subtracted:
// the silence that ends the turn (the end-of-turn time, or the VAD's own end-of-speech silence
// where that is longer: an utterance provider hears nothing before the VAD's end) and the
// container's own synthesis time (its sentence_end synthesis_ms), leaving our overhead. Then, with --memory MINUTES (default 10), one session takes
// that much speech as fast as the agent answers, printing RSS and heap as it goes. Before that,
// preemptive generation off and on (--preemptive-runs N, 0 to skip) through the Transcribe
// provider against its stand-in, with an LLM whose first token takes --llm-first-token ms.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { EchoProvider } from '../src/llm/echo.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from '../src/server/app.ts';
import { startTestContainer } from '../src/testing/harness.ts';
import { concatPcm, silence, speak } from '../src/testing/spoken-audio.ts';
import { pcmFrames } from '../src/testing/voice-frames.ts';
import { SileroVad } from '../src/stt/silero-vad.ts';
import { createOfflineSpeechToText } from '../src/stt/offline.ts';
import { SPEECH_GATE_DEFAULTS } from '../src/stt/speech-gate.ts';
import { DEFAULT_VOICE_OPTIONS, type VoiceOptions } from '../src/voice/voice-options.ts';
import { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY } from '@kokoro-speech/sagemaker/router';
import { startFakeTranscribeStreaming } from '../src/testing/fake-transcribe-streaming.ts';
import { createTranscribeSpeechToText } from '../src/stt/transcribe.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const RUNS = Number(arg('runs', '12'));
const END_OF_TURN = arg('end-of-turn', '300,500,800').split(',').map(Number);
const MEMORY_MINUTES = Number(arg('memory', '10'));
const PREEMPTIVE_RUNS = Number(arg('preemptive-runs', String(RUNS)));
const LLM_FIRST_TOKEN_MS = Number(arg('llm-first-token', '400'));
const FINAL_LAG_MS = Number(arg('final-lag', '300'));

const container = await startTestContainer();
const speech = await speak('What time does the library open on Sundays?');
// Where the speech really ends: its last sample above the espeak-ng output's noise floor.
let speechEnd = speech.length;
while (speechEnd > 0 && Math.abs(speech[speechEnd - 1]!) < 300) speechEnd--;
const LEAD = silence(300);

async function agent(options: Partial<VoiceOptions>): Promise<AgentServer> {
  return startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 100_000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    voice: { stt: createOfflineSpeechToText(), createVad: () => SileroVad.load(), options },
  });
}

interface Listener {
  on(
    event: string,
    message: {
      type: string;
      final?: boolean;
      synthesis_ms?: number;
      first_sentence_ms?: number;
      first_audio_ms?: number;
    } | null,
  ): void;
}

/** A caller's voice session: JSON events and audio frames (null) to `listener`. */
async function session(url: string, listener: Listener): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  ws.on('message', (data: Buffer, binary) => {
    if (binary) listener.on('audio', null);
    else {
      const event = JSON.parse(data.toString('utf8')) as { type: string };
      listener.on(event.type, event);
    }
  });
  const listening = new Promise<void>((resolve) => {
    const was = listener.on.bind(listener);
    listener.on = (type, e) => (type === 'listening' ? resolve() : undefined, was(type, e));
  });
  ws.send(JSON.stringify({ type: 'listen', input: { format: 'pcm_s16le', sample_rate: 16000 } }));
  await listening;
  return ws;
}

interface Run {
  endpointing: number;
  /** The turn's own metrics: its start to the LLM's first sentence, that to the TTS's first audio. */
  llm: number;
  tts: number;
  total: number;
  synthesis: number;
}

/** One spoken turn, paced in real time; times from the send of the frame holding the last speech. */
async function spokenTurn(url: string, endOfTurnMs: number): Promise<Run> {
  const t: Record<string, number> = {};
  let synthesis = 0;
  let firstSentence = 0;
  let firstAudio = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const ws = await session(url, {
    on(type, e) {
      const now = performance.now();
      if (type === 'transcript' && e?.final) t['final'] ??= now;
      if (type === 'audio' && t['final'] !== undefined) t['audio'] ??= now;
      if (type === 'sentence_end') synthesis ||= e?.synthesis_ms ?? 0;
      if (type === 'metrics') ((firstSentence = e?.first_sentence_ms ?? 0), (firstAudio = e?.first_audio_ms ?? 0));
      if (type === 'done') done();
    },
  });
  const audio = concatPcm(LEAD, speech, silence(endOfTurnMs + 1500));
  const endFrame = Math.floor((LEAD.length + speechEnd - 1) / 320);
  const started = performance.now();
  let stop = false;
  void finished.then(() => (stop = true));
  for (const [i, frame] of pcmFrames(audio).entries()) {
    if (stop) break;
    const wait = started + i * 20 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    ws.send(frame, { binary: true });
    // The speech ends inside this frame: its end is at the frame's end, 20 ms of audio later.
    if (i === endFrame) t['end'] = performance.now() + ((LEAD.length + speechEnd) % 320) / 16;
  }
  await finished;
  ws.close();
  const { end, final, audio: first } = t as Record<'end' | 'final' | 'audio', number>;
  const tts = firstAudio - firstSentence;
  return { endpointing: final - end, llm: firstSentence, tts, total: first - end, synthesis };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const cell = (xs: number[]) => `${pct(xs, 50).toFixed(0)} / ${pct(xs, 95).toFixed(0)}`;

console.log(
  `machine: ${cpus()[0]?.model} x${cpus().length}, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  `speech: ${(speechEnd / 16).toFixed(0)} ms of espeak-ng, paced in real time, ${RUNS} runs per setting; ms, p50 / p95`,
);
console.log('');
console.log(
  '| VOICE_END_OF_TURN_MS | endpointing | LLM first sentence | TTS first audio | end of speech -> first audio | TTS floor (synthesis) | our overhead |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const endOfTurnMs of END_OF_TURN) {
  const server = await agent({ endOfTurnMs });
  const runs: Run[] = [];
  await spokenTurn(server.wsUrl, endOfTurnMs); // warm-up: the VAD's and the model's first runs
  for (let r = 0; r < RUNS; r++) runs.push(await spokenTurn(server.wsUrl, endOfTurnMs));
  await server.close();
  const silenceFloor = Math.max(endOfTurnMs, SPEECH_GATE_DEFAULTS.minSilenceMs);
  const overhead = runs.map((r) => r.total - silenceFloor - r.synthesis);
  console.log(
    `| ${endOfTurnMs} | ${cell(runs.map((r) => r.endpointing))} | ${cell(runs.map((r) => r.llm))} | ${cell(runs.map((r) => r.tts))} | ${cell(runs.map((r) => r.total))} | ${cell(runs.map((r) => r.synthesis))} | ${cell(overhead)} |`,
  );
}

if (PREEMPTIVE_RUNS > 0) {
  // Preemptive generation (VOICE_PREEMPTIVE) through the Transcribe provider and its stand-in: a
  // partial with every word stable as the speech ends, the final FINAL_LAG_MS later; the echo LLM
  // takes LLM_FIRST_TOKEN_MS to its first token (a hosted model's order). Off and on, same script.
  const words = 'What time does the library open on Sundays?';
  const end = (LEAD.length + speechEnd) / 16_000;
  const transcribe = await startFakeTranscribeStreaming({
    script: () => ({
      steps: [
        { atSeconds: end - 0.6, partial: 'What time does the', stableWords: 2 },
        { atSeconds: end + 0.05, partial: words, stableWords: 99 },
        { atSeconds: end + FINAL_LAG_MS / 1000, final: words },
      ],
    }),
  });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING: transcribe.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: LOCAL_SECRET_ACCESS_KEY,
  });
  const stt = createTranscribeSpeechToText();
  const eot = DEFAULT_VOICE_OPTIONS.endOfTurnMs;
  console.log('');
  console.log(
    `preemptive generation: Transcribe stand-in (stable partial at the end of speech, final ${FINAL_LAG_MS} ms later), LLM first token ${LLM_FIRST_TOKEN_MS} ms, VOICE_END_OF_TURN_MS ${eot}; ms, p50 / p95`,
  );
  console.log(
    "| VOICE_PREEMPTIVE | final transcript | LLM first sentence (from the turn's start) | end of speech -> first audio |",
  );
  console.log('|---|---:|---:|---:|');
  const totals: Record<string, number[]> = {};
  for (const preemptive of [false, true]) {
    const server = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: LLM_FIRST_TOKEN_MS, tokensPerSecond: 100_000 }),
      tts: new WebSocketTransport({ url: container.server.wsUrl }),
      voice: { stt, createVad: () => SileroVad.load(), options: { endOfTurnMs: eot, preemptive } },
    });
    await spokenTurn(server.wsUrl, eot); // warm-up
    const runs: Run[] = [];
    for (let r = 0; r < PREEMPTIVE_RUNS; r++) runs.push(await spokenTurn(server.wsUrl, eot));
    await server.close();
    totals[String(preemptive)] = runs.map((r) => r.total);
    console.log(
      `| ${preemptive ? 'on' : 'off'} | ${cell(runs.map((r) => r.endpointing))} | ${cell(runs.map((r) => r.llm))} | ${cell(runs.map((r) => r.total))} |`,
    );
  }
  const saved = pct(totals['false']!, 50) - pct(totals['true']!, 50);
  console.log(`preemptive generation saves ${saved.toFixed(0)} ms at p50 (end of speech -> first audio)`);
  await stt.close();
  await transcribe.close();
}

if (MEMORY_MINUTES > 0) {
  // One session, turn after turn, each utterance sent at once (the bound on audio ahead of real
  // time raised to let it), the next once the answer is done: minutes of audio in far less time.
  const server = await agent({ ...DEFAULT_VOICE_OPTIONS, maxAheadMs: 600_000, noSpeechMs: 3_600_000 });
  let done: () => void = () => {};
  const ws = await session(server.wsUrl, { on: (type) => (type === 'done' ? done() : undefined) });
  const utterance = concatPcm(LEAD, speech, silence(DEFAULT_VOICE_OPTIONS.endOfTurnMs + 700));
  const gc = (globalThis as { gc?: () => void }).gc;
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const report = (minute: number) => {
    gc?.();
    const m = process.memoryUsage();
    console.log(`| ${minute} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.external + m.arrayBuffers)} |`);
  };
  console.log('');
  console.log(`memory: one voice session, ${MEMORY_MINUTES} minutes of speech${gc ? '' : ' (run with --expose-gc)'}`);
  console.log('| audio minutes | RSS MB | heap used MB | external + array buffers MB |');
  console.log('|---:|---:|---:|---:|');
  let sent = 0;
  let nextReport = 0;
  while (sent <= MEMORY_MINUTES * 60 * 16_000) {
    if (sent >= nextReport * 60 * 16_000) report(nextReport++);
    const answered = new Promise<void>((resolve) => (done = resolve));
    for (const frame of pcmFrames(utterance)) ws.send(frame, { binary: true });
    sent += utterance.length;
    await answered;
  }
  report(nextReport);
  ws.close();
  await server.close();
}
await container.close();
