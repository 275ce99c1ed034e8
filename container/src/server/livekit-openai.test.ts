/**
 * @jest-environment ../integrations/livekit/src/testing/jest-environment.js
 */
// LiveKit's Node OpenAI plugin (@livekit/agents-plugin-openai 1.9, unmodified) with its baseURL at
// the container, inside LiveKit's own StreamAdapter for sentence streaming, as an agent uses it:
// text pushed in pieces as an LLM streams it, one request per sentence (it asks for pcm and reads
// each whole body), its frames counted against the pcm route's audio for the same sentences.
// (The environment is the LiveKit workspace's: the host's TypeError, see that file.)
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initializeLogger, tokenize, tts } from '@livekit/agents';
import * as openai from '@livekit/agents-plugin-openai';
import { writeFixtureModel } from '../fixture/index.ts';
import { startServer, type RunningServer } from '../index.ts';

const TEXT =
  'Hello from Kokoro, spoken through the LiveKit plugin. It asks for one sentence at a time. ' +
  'Each answer is raw PCM, read whole, then cut into frames.';

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  initializeLogger({ pretty: false, level: 'silent' });
  dir = await mkdtemp(join(tmpdir(), 'kokoro-livekit-openai-'));
  await writeFixtureModel(dir);
  server = await startServer({ modelDir: dir, config: { dtype: 'fp32' } });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The sentences LiveKit's tokenizer makes of the text, as the adapter's own stream of it does. */
async function sentencesOf(tokenizer: tokenize.SentenceTokenizer, text: string): Promise<string[]> {
  const stream = tokenizer.stream();
  stream.pushText(text);
  stream.endInput();
  const out: string[] = [];
  for await (const ev of stream) out.push(ev.token);
  return out;
}

/** Samples of the pcm route's answer for one text. */
async function pcmSamples(input: string): Promise<number> {
  const res = await fetch(`${server.url}/v1/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'kokoro', voice: 'af_heart', input, response_format: 'pcm' }),
  });
  expect(res.status).toBe(200);
  return (await res.arrayBuffer()).byteLength / 2;
}

test("LiveKit's OpenAI TTS in a StreamAdapter speaks every sentence, its audio as long as the pcm route's", async () => {
  const plugin = new openai.TTS({
    baseURL: `${server.url}/v1`,
    apiKey: 'not-needed',
    model: 'kokoro',
    // The plugin's type lists OpenAI's voice names only; any Kokoro id goes through on the wire.
    voice: 'af_heart' as 'alloy',
  });
  const tokenizer = new tokenize.basic.SentenceTokenizer();
  const adapter = new tts.StreamAdapter(plugin, tokenizer);
  const stream = adapter.stream();
  // Pushed in small pieces, as an LLM's tokens arrive.
  for (const piece of TEXT.match(/.{1,7}/gs)!) stream.pushText(piece);
  stream.flush();
  stream.endInput();
  const byRequest = new Map<string, number>();
  let frames = 0;
  for await (const audio of stream) {
    if (audio === tts.SynthesizeStream.END_OF_STREAM) break;
    expect(audio.frame.sampleRate).toBe(24000);
    expect(audio.frame.channels).toBe(1);
    frames++;
    byRequest.set(audio.requestId, (byRequest.get(audio.requestId) ?? 0) + audio.frame.samplesPerChannel);
  }
  stream.close();
  await adapter.close();

  const sentences = await sentencesOf(tokenizer, TEXT);
  expect(sentences.length).toBeGreaterThanOrEqual(2);
  const reference = await Promise.all(sentences.map(pcmSamples));
  // The plugin cuts each answer into 100 ms frames (AudioByteStream) and drops the last partial one
  // (its ChunkedStream never flushes): each sentence is its pcm audio, whole frames of it.
  const frame = 2400;
  const expected = reference.map((n) => Math.floor(n / frame) * frame);
  expect([...byRequest.values()]).toEqual(expected);
  expect(frames).toBe(expected.reduce((a, n) => a + n, 0) / frame);
  const total = [...byRequest.values()].reduce((a, n) => a + n, 0);
  const pcmTotal = reference.reduce((a, n) => a + n, 0);
  expect(pcmTotal - total).toBeGreaterThanOrEqual(0);
  expect(pcmTotal - total).toBeLessThan(frame * sentences.length);
});
