// AgentCore's WebSocket quotas end to end: an LLM that writes a long answer at once (a fake
// OpenAI-compatible server on loopback, 4-character chunks, no delay), the real container on the
// stand-in model (synthesis faster than real time), the agent with its defaults. Over the
// WebSocket, in PCM and in Opus, no frame is over 32,768 bytes and no 1-second window holds more
// than 250 frames, and the caller still gets every byte: the same text, and per sentence the same
// audio bytes as the same answer over SSE (which has no frame limits). With tighter limits
// configured, the same holds against them.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import { unpackOpusRecords } from '@kokoro-speech/protocol/opus-framing';
import { WsTurnFramer } from '@kokoro-speech/protocol/ws-framing';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { maxInWindow, startTestContainer, type TestContainer } from '../testing/harness.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { sseTurn } from '../testing/turn-clients.ts';

const SENTENCES = [
  'The museum opens at nine in the morning and closes at six in the evening on weekdays.',
  'On Saturdays it stays open until eight, and the late hours are usually the quietest.',
  'Tickets can be bought at the door or online, where they cost a little less.',
];
const answerOf = (chars: number) => {
  let text = '';
  for (let i = 0; text.length < chars; i++) text += `${SENTENCES[i % SENTENCES.length]} `;
  return text.trim();
};
const LONG = answerOf(2400);
const SHORT = answerOf(500);

let container: TestContainer;
let fake: FakeLlmServer;
const agents: AgentServer[] = [];
beforeAll(async () => {
  container = await startTestContainer();
  fake = await startFakeOpenAI({
    chunkDelayMs: 0,
    chunkChars: 4,
    reply: (request) => ({ text: request.lastUserText === 'short' ? SHORT : LONG }),
  });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await fake?.close();
  await container?.close();
});
async function agent(extra: Parameters<typeof startAgentServer>[0]['wsFrames'] = {}) {
  const server = await startAgentServer({
    llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    wsFrames: extra,
  });
  agents.push(server);
  return server;
}

/** One WebSocket turn, every frame recorded as the caller gets it; audio per sentence as the framer reads it. */
async function wsTurn(server: AgentServer, prompt: string, format: string) {
  const ws = new WebSocket(server.wsUrl);
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  const framer = new WsTurnFramer();
  const frames: { at: number; binary: boolean; bytes: number; data: Buffer }[] = [];
  const audio = new Map<string, Buffer[]>();
  let text = '';
  await new Promise<void>((resolve) => {
    ws.on('message', (data: Buffer, binary) => {
      frames.push({ at: performance.now(), binary, bytes: data.length, data });
      if (binary) {
        const at = framer.audio()!;
        audio.set(at.id, [...(audio.get(at.id) ?? []), data]);
        return;
      }
      const event = framer.event(JSON.parse(data.toString('utf8')));
      if (event.type === 'text') text += event.delta;
      if (event.type === 'done') resolve();
    });
    ws.send(JSON.stringify({ type: 'prompt', prompt, format }));
  });
  ws.close();
  return { frames, audio, text };
}

/** The same turn over SSE: audio per sentence. */
async function sseAudio(server: AgentServer, prompt: string, format: string) {
  const { events } = await sseTurn(server.url, { prompt, format });
  const audio = new Map<string, Buffer[]>();
  for (const e of events) if (e.type === 'audio') audio.set(e.id, [...(audio.get(e.id) ?? []), Buffer.from(e.data)]);
  return audio;
}

/** Per sentence: its audio's length and SHA-256 (jest compares megabytes of Buffer slowly). */
const joined = (audio: Map<string, Buffer[]>) =>
  [...audio].map(([id, chunks]) => {
    const all = Buffer.concat(chunks);
    return [id, all.length, createHash('sha256').update(all).digest('hex')];
  });

describe("AgentCore's WebSocket quotas, a long answer written at once", () => {
  test.each(['pcm_s16le', 'opus'])(
    '%s: at most 250 frames in any second, none over 32 KB, every byte delivered',
    async (format) => {
      const server = await agent();
      const { frames, audio, text } = await wsTurn(server, 'long', format);
      expect(text).toBe(LONG);
      expect(Math.max(...frames.map((f) => f.bytes))).toBeLessThanOrEqual(32_768);
      expect(
        maxInWindow(
          frames.map((f) => f.at),
          1000,
        ),
      ).toBeLessThanOrEqual(250);
      // Every frame is whole samples (PCM) or whole records (Opus).
      for (const f of frames.filter((x) => x.binary)) {
        if (format === 'opus') expect(() => unpackOpusRecords(new Uint8Array(f.data))).not.toThrow();
        else expect(f.bytes % 2).toBe(0);
      }
      expect(audio.size).toBeGreaterThan(20);
      expect(joined(audio)).toEqual(joined(await sseAudio(server, 'long', format)));
    },
    120_000, // two long answers (WS and SSE), Opus-encoded, on a shared machine
  );

  test.each(['pcm_s16le', 'opus'])(
    '%s with tighter limits (8 KiB, 120 frames/s): held to them',
    async (format) => {
      const server = await agent({ maxFrameBytes: 8192, maxFramesPerSecond: 120 });
      const { frames, audio, text } = await wsTurn(server, 'short', format);
      expect(text).toBe(SHORT);
      expect(Math.max(...frames.map((f) => f.bytes))).toBeLessThanOrEqual(8192);
      expect(
        maxInWindow(
          frames.map((f) => f.at),
          1000,
        ),
      ).toBeLessThanOrEqual(120);
      expect(joined(audio)).toEqual(joined(await sseAudio(server, 'short', format)));
    },
    60_000,
  );
});
