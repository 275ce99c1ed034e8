// The frames the agent's WebSocket sends a caller when the answer's text arrives at once (an LLM
// that writes a long answer in one go), against AgentCore's limits (32 KB a frame, 250 frames per
// second per connection: docs/design/agentcore-contract.md#limits). The LLM is a fake OpenAI-
// compatible server on loopback writing 4-character chunks with no delay; the TTS is the real
// container on the stand-in model (faster than real time). Prints, per format (PCM, Opus): frames,
// the most frames in any 1-second window, the mean rate, the largest frame, audio bytes received.
// Run: npm run -w runtime bench:ws-frames   (ROUNDS=n turns per format, default 3; CHARS=answer length)
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { startServer } from '@kokoro-speech/container';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { OpenAIProvider } from '../src/llm/openai.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import { startAgentServer } from '../src/server/app.ts';
import { startFakeOpenAI } from '../src/testing/fake-llm-servers.ts';
import { maxInWindow } from '../src/testing/harness.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CHARS = Number(process.env.CHARS ?? 6000);
const SENTENCES = [
  'The museum opens at nine in the morning and closes at six in the evening on weekdays.',
  'On Saturdays it stays open until eight, and the late hours are usually the quietest.',
  'Tickets can be bought at the door or online, where they cost a little less.',
  'Children under twelve go in for free, and students pay half price with a valid card.',
  'The east wing holds the modern collection, with a long gallery of large paintings.',
];
let answer = '';
for (let i = 0; answer.length < CHARS; i++) answer += `${SENTENCES[i % SENTENCES.length]} `;
answer = answer.trim();

interface Round {
  frames: number;
  text: number;
  audio: number;
  window: number;
  seconds: number;
  largest: number;
  audioBytes: number;
}

async function turn(wsUrl: string, format: 'pcm_s16le' | 'opus'): Promise<Round> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const times: number[] = [];
  let largest = 0;
  let audio = 0;
  let audioBytes = 0;
  const done = new Promise<void>((resolve) => {
    ws.on('message', (data: Buffer, isBinary) => {
      times.push(performance.now());
      largest = Math.max(largest, data.length);
      if (isBinary) {
        audio++;
        audioBytes += data.length;
      } else if ((JSON.parse(data.toString('utf8')) as { type: string }).type === 'done') resolve();
    });
  });
  ws.send(JSON.stringify({ type: 'prompt', prompt: 'Tell me about the museum.', format }));
  await done;
  ws.close();
  const seconds = (times.at(-1)! - times[0]!) / 1000;
  return {
    frames: times.length,
    text: times.length - audio,
    audio,
    window: maxInWindow(times, 1000),
    seconds,
    largest,
    audioBytes,
  };
}

const dir = await mkdtemp(join(tmpdir(), 'kokoro-bench-'));
await writeFixtureModel(dir);
const container = await startServer({ modelDir: dir, config: { dtype: 'fp32' } });
const fake = await startFakeOpenAI({ chunkDelayMs: 0, chunkChars: 4, reply: () => ({ text: answer }) });
const agent = await startAgentServer({
  llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }),
  tts: new WebSocketTransport({ url: container.wsUrl }),
  limits: { maxTurnMs: 600_000 },
});
console.log(
  `WebSocket frames of one turn: a ${answer.length}-character answer written at once (4-character chunks, no delay), ` +
    `the real container on the stand-in model, ${ROUNDS} turns per format + 1 warm-up, median of the turns`,
);
console.log(
  '| format | frames (text + audio) | most in any 1 s | mean per s | largest frame bytes | audio bytes | turn s |',
);
console.log('|---|---|---|---|---|---|---|');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const format of ['pcm_s16le', 'opus'] as const) {
  await turn(agent.wsUrl, format); // warm-up
  const rounds: Round[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push(await turn(agent.wsUrl, format));
  const m = (pick: (r: Round) => number) => median(rounds.map(pick));
  const worst = Math.max(...rounds.map((r) => r.window));
  console.log(
    `| ${format} | ${m((r) => r.frames)} (${m((r) => r.text)} + ${m((r) => r.audio)}) | ${m((r) => r.window)} (worst ${worst}) | ` +
      `${Math.round(m((r) => r.frames / r.seconds))} | ${Math.max(...rounds.map((r) => r.largest))} | ${m((r) => r.audioBytes)} | ${m((r) => r.seconds).toFixed(2)} |`,
  );
}
await agent.close();
await fake.close();
await container.close();
await rm(dir, { recursive: true, force: true });
