// The WebSocket frame limits on their own, over a real loopback WebSocket pair: the token bucket's
// window property (on a simulated clock: no timing in it), text split and joined within the frame
// limit without breaking a character, audio cut at whole PCM samples and whole Opus records and
// joined only within its sentence, the order of everything else kept, and the frame rate as the
// caller counts it. The end-to-end check (a real turn, PCM and Opus) is agentcore-limits.test.ts.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { packOpusRecords, unpackOpusRecords } from '@kokoro-speech/protocol/opus-framing';
import { WsTurnFramer } from '@kokoro-speech/protocol/ws-framing';
import { FrameBudget } from './frame-budget.ts';
import { splitText, WsFrames } from './ws-frames.ts';
import { maxInWindow } from '../testing/harness.ts';

let wss: WebSocketServer;
let url: string;
const accepted: WebSocket[] = [];
beforeAll(async () => {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (ws) => accepted.push(ws));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
});

interface Frame {
  at: number;
  binary: boolean;
  data: Buffer;
}

/** A server socket with WsFrames on it, and the caller's end recording every frame. */
async function pair(limits: { maxFrameBytes: number; maxFramesPerSecond: number }) {
  const client = new WebSocket(url);
  const frames: Frame[] = [];
  client.on('message', (data: Buffer, binary) => frames.push({ at: performance.now(), binary, data }));
  await new Promise<void>((resolve) => client.once('open', () => resolve()));
  while (accepted.length === 0) await new Promise((r) => setTimeout(r, 5));
  const server = accepted.shift()!;
  const oversize: string[] = [];
  const out = new WsFrames(server, limits, (type) => oversize.push(type));
  let written = 0;
  const send = (event: { type: string; [k: string]: unknown }) => out.send(event, () => written++);
  return { client, frames, out, send, oversize, written: () => written };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
};
const events = (frames: Frame[]) =>
  frames.filter((f) => !f.binary).map((f) => JSON.parse(f.data.toString('utf8')) as { type: string; delta?: string });

describe('FrameBudget', () => {
  test('sending whenever allowed keeps every 1 s window at 90 % of the limit at most; a full queue goes at 0.8 x the limit', () => {
    for (const limit of [10, 250, 1000]) {
      for (const gaps of [false, true]) {
        let now = 0;
        const budget = new FrameBudget(limit, now);
        const sent: number[] = [];
        // 20 simulated seconds of frames offered back to back, or at random gaps (bursts, pauses).
        while (now < 20_000) {
          const wait = budget.wait(now);
          if (wait === 0) {
            budget.take(now);
            sent.push(now);
          }
          now += wait > 0 ? wait : gaps && Math.random() < 0.1 ? Math.random() * 300 : 0;
        }
        expect(maxInWindow(sent, 1000)).toBeLessThanOrEqual(Math.floor(limit * 0.9));
        if (!gaps) expect(sent.length).toBeGreaterThanOrEqual(Math.floor(limit * 0.8 * 20));
      }
    }
    expect(() => new FrameBudget(0)).toThrow(/frames per second must be >= 1/);
  });
});

describe('WsFrames over a real WebSocket', () => {
  test('a text delta over the frame limit goes as several text events; no character is broken', async () => {
    const { client, frames, send, written } = await pair({ maxFrameBytes: 4096, maxFramesPerSecond: 250 });
    const delta = 'Naïve "quoted" café 🎉 \u0007 '.repeat(600); // multi-byte, escaped, astral
    expect(splitText(delta, 1000).every((p) => Buffer.byteLength(JSON.stringify(p)) - 2 <= 1000)).toBe(true);
    send({ type: 'text', delta });
    send({ type: 'done' });
    await until(() => events(frames).some((e) => e.type === 'done'));
    expect(frames.every((f) => f.data.length <= 4096)).toBe(true);
    const texts = events(frames).filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.map((e) => e.delta).join('')).toBe(delta);
    expect(texts.every((e) => !/[\uD800-\uDBFF]$/.test(e.delta!))).toBe(true);
    expect(written()).toBe(2);
    client.close();
  });

  test('what waits is joined: text across speech events only, audio within its sentence; order and bytes kept', async () => {
    // 10 frames a second: the first frame goes at once, everything after it waits and joins.
    const { client, frames, send, written } = await pair({ maxFrameBytes: 4096, maxFramesPerSecond: 10 });
    const pcm = (n: number, fill: number) => new Uint8Array(n).fill(fill);
    const script: { type: string; [k: string]: unknown }[] = [
      { type: 'start', format: 'pcm_s16le', sample_rate: 24000 },
      { type: 'text', delta: 'One. ' },
      { type: 'sentence', id: 's1', index: 0, text: 'One.', spoken: 'One.' },
      { type: 'audio', id: 's1', seq: 0, data: pcm(3000, 1) },
      { type: 'text', delta: 'Two ' },
      { type: 'audio', id: 's1', seq: 1, data: pcm(3000, 2) }, // joins up to 4096, the rest goes on
      { type: 'sentence_end', id: 's1', duration_ms: 100, synthesis_ms: 1 },
      { type: 'text', delta: 'more.' }, // joins 'Two ' across the speech events
      { type: 'tool', id: 't', name: 'x', state: 'started', started_ms: 1 },
      { type: 'text', delta: ' After.' }, // not across the tool event
      { type: 'sentence', id: 's2', index: 1, text: 'Two more.', spoken: 'Two more.' },
      { type: 'audio', id: 's2', seq: 0, data: pcm(1000, 3) }, // never joins s1's audio
      { type: 'sentence_end', id: 's2', duration_ms: 20, synthesis_ms: 1 },
      { type: 'done' },
    ];
    for (const e of script) send(e);
    await until(() => events(frames).some((e) => e.type === 'done'));
    expect(written()).toBe(script.length);
    const framer = new WsTurnFramer();
    const shape: string[] = [];
    const audio = new Map<string, number[]>();
    for (const f of frames) {
      if (f.binary) {
        const at = framer.audio()!;
        audio.set(at.id, [...(audio.get(at.id) ?? []), ...f.data]);
        shape.push(`audio:${at.id}:${f.data.length}`);
      } else {
        const e = framer.event(JSON.parse(f.data.toString('utf8')));
        shape.push(e.type === 'text' ? `text:${e.delta}` : e.type);
      }
    }
    expect(shape).toEqual([
      'start',
      'text:One. Two more.',
      'sentence',
      'audio:s1:4096',
      'audio:s1:1904',
      'sentence_end',
      'tool',
      'text: After.',
      'sentence',
      'audio:s2:1000',
      'sentence_end',
      'done',
    ]);
    expect(audio.get('s1')).toEqual([...pcm(3000, 1), ...pcm(3000, 2)]);
    client.close();
  });

  test('Opus: a chunk over the frame limit is cut at whole records; PCM at whole samples', async () => {
    const { client, frames, send } = await pair({ maxFrameBytes: 4096, maxFramesPerSecond: 250 });
    const records = Array.from({ length: 120 }, (_, i) => ({
      packet: new Uint8Array(40 + (i % 50)).fill(i),
      skip: i === 0 ? 156 : 0,
      keep: 480,
    }));
    send({ type: 'start', format: 'opus', sample_rate: 24000 });
    send({ type: 'sentence', id: 'a', index: 0, text: 'A.', spoken: 'A.' });
    send({ type: 'audio', id: 'a', seq: 0, data: packOpusRecords(records) });
    send({ type: 'sentence_end', id: 'a', duration_ms: 1, synthesis_ms: 1 });
    send({ type: 'done' });
    send({ type: 'start', format: 'pcm_s16le', sample_rate: 24000 });
    send({ type: 'sentence', id: 'b', index: 0, text: 'B.', spoken: 'B.' });
    send({ type: 'audio', id: 'b', seq: 0, data: new Uint8Array(10_001) });
    send({ type: 'sentence_end', id: 'b', duration_ms: 1, synthesis_ms: 1 });
    send({ type: 'done' });
    await until(() => events(frames).filter((e) => e.type === 'done').length === 2);
    const binary = frames.filter((f) => f.binary);
    const doneAt = frames.findIndex((f) => !f.binary && f.data.toString().includes('"done"'));
    const opus = binary.filter((f) => frames.indexOf(f) < doneAt);
    const pcm = binary.filter((f) => frames.indexOf(f) > doneAt);
    expect(opus.length).toBeGreaterThan(1);
    expect(opus.every((f) => f.data.length <= 4096)).toBe(true);
    const got = opus.flatMap((f) => unpackOpusRecords(new Uint8Array(f.data)));
    expect(got.map((r) => [r.packet.length, r.skip, r.keep])).toEqual(
      records.map((r) => [r.packet.length, r.skip, r.keep]),
    );
    expect(pcm.map((f) => f.data.length)).toEqual([4096, 4096, 1809]);
    client.close();
  });

  test('600 events sent at once reach the caller within the frame rate, all of them', async () => {
    const { client, frames, send, out, written } = await pair({ maxFrameBytes: 32_768, maxFramesPerSecond: 250 });
    send({ type: 'start', format: 'pcm_s16le', sample_rate: 24000 });
    for (let i = 0; i < 300; i++) {
      send({ type: 'text', delta: `${i} ` });
      send({ type: 'tool', id: `t${i}`, name: 'x', state: 'started', started_ms: i }); // never joined
    }
    send({ type: 'done' });
    await until(() => events(frames).some((e) => e.type === 'done'));
    expect(written()).toBe(602);
    expect(out.sent).toBe(frames.length);
    expect(frames.length).toBe(602);
    const texts = events(frames).filter((e) => e.type === 'text');
    expect(texts.map((e) => e.delta).join('')).toBe(Array.from({ length: 300 }, (_, i) => `${i} `).join(''));
    const times = frames.map((f) => f.at);
    expect(maxInWindow(times, 1000)).toBeLessThanOrEqual(250);
    expect(out.queuedBytes).toBe(0);
    client.close();
  });

  test('an event too big for one frame is a bug said clearly: an internal error event instead', async () => {
    const { client, frames, send, oversize } = await pair({ maxFrameBytes: 4096, maxFramesPerSecond: 250 });
    send({ type: 'voices', voices: Array.from({ length: 400 }, (_, i) => ({ id: `voice_${i}`, language: 'en' })) });
    await until(() => frames.length === 1);
    expect(events(frames)[0]).toMatchObject({
      type: 'error',
      code: 'internal',
      message: expect.stringMatching(/voices event of \d+ bytes .*WS_MAX_FRAME_BYTES=4096/),
    });
    expect(oversize).toEqual(['voices']);
    client.close();
  });
});
