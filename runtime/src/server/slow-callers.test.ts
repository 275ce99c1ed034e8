// Callers that read slowly or not at all, through the real agent server on loopback: a fake LLM
// writing an answer many times longer than the bounds, the real container on the stand-in model
// behind a proxy that counts (and can cut) the TTS traffic, and raw-socket / paused-WebSocket
// callers. Memory stays bounded because the bound reaches the TTS connection: the agent stops
// reading the TTS stream and sends it no more than its window of text ahead; a caller that takes
// nothing for CALLER_STALL_SECONDS is dropped and its turn's work freed; a turn holds its slot
// until its caller has its last byte or is gone.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import WebSocket from 'ws';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { sentencesOf, startTestContainer, type TestContainer } from '../testing/harness.ts';
import { startCutProxy, type CutProxy } from '../testing/cut-proxy.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { slowSseCaller } from '../testing/slow-caller.ts';

const sentence = (i: number) => `Sentence ${i} of an answer far longer than any buffer the agent keeps for a caller. `;
/** ~73,000 characters: minutes of audio, several times what the bounds let through. */
const LONG = Array.from({ length: 900 }, (_, i) => sentence(i)).join('');
const SHORT = Array.from({ length: 24 }, (_, i) => sentence(i)).join('');
/** ~5,000 characters: still five times the window of text the TTS is sent ahead. */
const MEDIUM = Array.from({ length: 60 }, (_, i) => sentence(i)).join('');

let container: TestContainer;
let llm: FakeLlmServer;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  container = await startTestContainer();
  llm = await startFakeOpenAI({
    chunkDelayMs: 0,
    chunkChars: 64,
    reply: (r) => ({ text: { long: LONG, medium: MEDIUM }[r.lastUserText] ?? SHORT }),
  });
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await llm?.close();
  await container?.close();
});

async function agent(flow: { stallMs: number }): Promise<{ server: AgentServer; tts: CutProxy }> {
  const tts = await startCutProxy(container.server.port);
  const server = await startAgentServer({
    llm: new OpenAIProvider({ baseURL: `${llm.url}/v1`, model: 'm' }),
    tts: new WebSocketTransport({ url: `ws://127.0.0.1:${tts.port}` }),
    limits: { maxConcurrentTurns: 1 },
    flow,
  });
  closers.push(async () => {
    await server.close();
    await tts.close();
  });
  return { server, tts };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(what: string, condition: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  for (const end = performance.now() + ms; !(await condition()); await sleep(25))
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
}
const status = async (server: AgentServer) =>
  (await fetch(`${server.url}/invocations`, { method: 'POST', body: '{"prompt":"short"}' }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  })) as number;
/** JSON text messages sent to the container: ~60 bytes of framing per piece plus its text. */
const textSent = (tts: CutProxy) => tts.bytes.up;

describe('a caller that stops reading', () => {
  test('SSE: the TTS is sent a window of text, not the answer; the slot stays taken; after the stall bound the caller is dropped and everything freed', async () => {
    const { server, tts } = await agent({ stallMs: 1500 });
    // The answer stays open after its last chunk, as an LLM still writing would: with no pacing,
    // the fake can write all of it into the socket before the drop, and an answer that has ended
    // cannot tell that its reader left.
    llm.breakNext({ kind: 'stall', afterChunks: Infinity });
    const gone = llm.clientGone();
    const caller = await slowSseCaller(server.url, { prompt: 'long' }, { bytesPerSecond: 0 });
    expect(caller.status).toBe(200);
    // It reads nothing; the agent keeps its slot for it meanwhile.
    await until('some audio sent', () => tts.bytes.down > 0);
    expect(await status(server)).toBe(503);
    // Dropped after 1.5 s of taking nothing: the turn is cancelled, its LLM request ended.
    await until('the slot freed', async () => (await status(server)) === 200);
    await gone;
    // Bounded whatever the answer's length: what went to the TTS is a fraction of the answer.
    expect(textSent(tts)).toBeLessThan(LONG.length / 4);
    caller.setRate(1e9); // read what was buffered: the stream ends without the end of the answer
    expect(await caller.closed).toEqual({ complete: false });
    expect(caller.events.some((e) => e.type === 'done')).toBe(false);
  });

  test('WebSocket: the same, for a socket that stops reading (paused at the TCP level)', async () => {
    const { server, tts } = await agent({ stallMs: 1500 });
    const ws = new WebSocket(server.wsUrl);
    await new Promise((resolve) => ws.once('open', resolve));
    const frames: (string | Buffer)[] = [];
    ws.on('message', (data: Buffer, binary) => frames.push(binary ? data : data.toString()));
    ws.send(JSON.stringify({ type: 'prompt', prompt: 'long' }));
    await until('the first audio', () => frames.some((f) => typeof f !== 'string'));
    ws.pause();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await until('the slot freed', async () => (await status(server)) === 200);
    expect(textSent(tts)).toBeLessThan(LONG.length / 4);
    ws.resume();
    expect(await closed).toBe(1006); // terminated, not closed in order
    expect(frames.some((f) => typeof f === 'string' && f.includes('"done"'))).toBe(false);
  });

  test('stalled when the TTS stream breaks: nothing is re-sent into an unread stream; read again, every sentence arrives exactly once', async () => {
    const { server, tts } = await agent({ stallMs: 60_000 });
    const caller = await slowSseCaller(server.url, { prompt: 'medium' }, { bytesPerSecond: 0 });
    const settled = async () => {
      const before = { ...tts.bytes };
      await sleep(400);
      return tts.bytes.down > 0 && tts.bytes.down === before.down && tts.bytes.up === before.up;
    };
    await until('the TTS stream backs up', settled);
    const before = { ...tts.bytes };
    tts.cutAll(); // a container restart, as the agent sees it: the stream is gone
    await sleep(800);
    expect(tts.bytes).toEqual(before); // paused: no reconnect pumping audio that nobody reads
    caller.setRate(1e9);
    expect(await caller.closed).toEqual({ complete: true });
    const events = caller.events;
    expect(events.at(-1)).toEqual({ type: 'done' });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(tts.bytes.up).toBeGreaterThan(before.up); // it did reconnect, once read again
    const sentences = sentencesOf(events);
    expect(sentences.map((s) => s.text)).toEqual(MEDIUM.trim().split(/(?<=\.) /));
    for (const s of sentences) {
      expect(s.seqs).toEqual(s.seqs.map((_, i) => i));
      expect(s.bytes / 48).toBeCloseTo(s.duration_ms!, 0); // every sample once: none lost, none twice
    }
  }, 60_000);
});

describe('a slow but alive caller', () => {
  test('reading well below the audio rate, it gets the whole answer in order and is not dropped', async () => {
    // Seen alive at the kernel's granularity (a third of a send buffer, ~1.3 MB here: see FlowLimits).
    const { server } = await agent({ stallMs: 10_000 });
    const caller = await slowSseCaller(server.url, { prompt: 'short' }, { bytesPerSecond: 500_000 });
    expect(await caller.closed).toEqual({ complete: true });
    expect(caller.events.at(-1)).toEqual({ type: 'done' });
    const sentences = sentencesOf(caller.events);
    expect(sentences.map((s) => s.text)).toEqual(SHORT.trim().split(/(?<=\.) /));
    for (const s of sentences) expect(s.bytes / 48).toBeCloseTo(s.duration_ms!, 0);
  }, 60_000);
});
