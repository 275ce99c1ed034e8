// Bounded output on a real server: SSML pauses capped in total, speech bounded by the text it was
// made for, a reader that stops reading dropped with its buffered audio bounded, and /ping answered
// while a long compressed answer is still being encoded.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../index.ts';
import { createLogger } from '@kokoro-speech/protocol/server';
import { loadKokoroEngine } from '../engine/index.ts';
import { fixtureModelDir, logCapture } from '../testing/test-support.ts';

const MAX_BUFFERED = 1024 * 1024; // over one 10 s pause (480 KB), far under the answer below
let model: Awaited<ReturnType<typeof fixtureModelDir>>;
let dir: string;
let server: RunningServer;
const logs = logCapture();

beforeAll(async () => {
  model = await fixtureModelDir();
  dir = await mkdtemp(join(tmpdir(), 'output-bounds-'));
  const lexicon = join(dir, 'lexicon.json');
  // A deployment's entry that says a paragraph for a word: the runaway the speech bound stops.
  await writeFile(lexicon, JSON.stringify({ entries: [{ word: 'Zed', say: 'and again, '.repeat(40) }] }));
  server = await startServer({
    engine: await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 }),
    logger: createLogger('kokoro-server', 'info', logs.stream),
    config: { lexicon, maxWsBufferedBytes: MAX_BUFFERED },
  });
});
afterAll(async () => {
  await server?.close();
  await model?.remove();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
const breaks = (n: number) => `<speak>Hi.${'<break time="10s"/>'.repeat(n)}</speak>`;

test('SSML breaks may total 60 s: six 10 s breaks speak, a seventh is refused on every route, naming the cap', async () => {
  const six = await post('/invocations', { text: breaks(6), ssml: true, format: 'pcm_s16le' });
  expect(six.status).toBe(200);
  expect((await six.arrayBuffer()).byteLength / 2).toBeGreaterThanOrEqual(60 * 24000);

  const seven = await post('/invocations', { text: breaks(7), ssml: true });
  expect(seven.status).toBe(400);
  const body = (await seven.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('invalid_message');
  expect(body.error.message).toMatch(/total 70 s.*at most 60 s/);

  const openai = await post('/v1/audio/speech', { model: 'kokoro', voice: 'af_heart', input: breaks(7) });
  expect(openai.status).toBe(400);
  expect(await openai.json()).toMatchObject({ error: { param: 'input', message: expect.stringMatching(/60 s/) } });
});

test('speech over its bound for the text (5 s + 1 s a character) ends with 422 unspeakable_text, logged as 422', async () => {
  const res = await post('/invocations', { text: 'Zed.' });
  expect(res.status).toBe(422);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error).toMatchObject({ code: 'unspeakable_text', message: expect.stringMatching(/at most 5 s \+ 1 s/) });
  await logs.next((l) => l.msg === 'request done' && l.code === 'unspeakable_text');
  expect(logs.lines.find((l) => l.msg === 'request done' && l.code === 'unspeakable_text')).toMatchObject({
    status: 422,
  });
});

test('a client that never reads: audio waits for drain, and past the limit the request is dropped', async () => {
  // ~19 MB of 24 kHz PCM: far more than the socket buffers can absorb, so the server must wait.
  const text = 'Kokoro keeps talking to a client that never listens. '.repeat(90);
  const body = JSON.stringify({ text, speed: 0.5, format: 'pcm_s16le' });
  const socket = connect(server.port, '127.0.0.1');
  socket.pause(); // never read: the receive buffer fills, then the server's send buffer
  socket.write(
    `POST /invocations HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const stalled = await logs.next((l) => l.msg === 'client is not reading its audio; dropping the request');
  // What the server held for it: its queue plus the socket's writableLength, bounded by the limit
  // and the one chunk that went over it (a piece is at most 510 tokens: 512 x 1920 x 2 bytes here
  // at speed 0.5), against ~19 MB without drain.
  expect(stalled.bufferedBytes).toBeGreaterThan(MAX_BUFFERED);
  expect(stalled.bufferedBytes).toBeLessThanOrEqual(MAX_BUFFERED + 512 * 1920 * 2);
  const done = await logs.next((l) => l.msg === 'request done' && l.stalled === true);
  expect(done).toMatchObject({ status: 200, route: 'POST /invocations' });
  socket.destroy();
});

test('/ping answers while a long mp3 is still being encoded', async () => {
  // The ping's connection is open before the answer starts, so the ping costs a couple of turns of
  // the event loop; the answer's encode is hundreds of slices, one a turn.
  const ping = connect(server.port, '127.0.0.1');
  await once(ping, 'connect');
  const pinged = new Promise<string>((resolve) => ping.once('data', (data) => resolve(data.toString('latin1'))));
  const speech = await post('/v1/audio/speech', { model: 'kokoro', voice: 'af_heart', input: breaks(6) });
  expect(speech.status).toBe(200);
  const reader = speech.body!.getReader();
  const first = await reader.read();
  expect(first.done).toBe(false);
  const spoken = () =>
    logs.lines.some((l) => l.msg === 'request done' && l.route === 'POST /v1/audio/speech' && l.status === 200);
  ping.write('GET /ping HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
  expect(await pinged).toMatch(/^HTTP\/1\.1 200/);
  // The ping was answered before the answer's last bytes were encoded and written.
  expect(spoken()).toBe(false);
  let bytes = first.value!.byteLength;
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  expect(bytes).toBeGreaterThan(60 * 8000); // 60 s at 64 kbit/s
  await logs.next((l) => l.msg === 'request done' && l.route === 'POST /v1/audio/speech' && l.status === 200);
  ping.destroy();
});
