// The drop-in bodies (stream_format "sse" events, captioned JSON lines) under the container's output
// bounds: written at the reader's pace and dropped when the reader stops, G.711 and a volume
// applied in slices, refused languages 400 unsupported_language, each request logged on its own
// route with the status it was sent.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureModel } from '../fixture/index.ts';
import { loadKokoroEngine } from '../engine/index.ts';
import { startServer, type RunningServer } from '../index.ts';
import { createLogger } from '@kokoro-speech/protocol/server';
import { logCapture } from '../testing/test-support.ts';
import { SLICE_BYTES } from './audio-response.ts';

const MAX_BUFFERED = 1024 * 1024;
/** The largest piece at speed 0.5 (510 tokens and its pads, output-bounds.test.ts), as base64. */
const PIECE_FRAME = Math.ceil((512 * 1920 * 2 * 4) / 3) + 1024;
/** Well over what the socket buffers absorb at speed 0.5, under OpenAI's 4096 characters. */
const LONG = 'Kokoro keeps talking to a client that never listens. '.repeat(70);
const PAUSE = '<speak>Hi.<break time="3s"/></speak>';

let dir: string;
let server: RunningServer;
const logs = logCapture();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-drop-in-bounds-'));
  await writeFixtureModel(dir, { durations: true });
  server = await startServer({
    engine: await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 }),
    logger: createLogger('kokoro-server', 'info', logs.stream),
    config: { maxWsBufferedBytes: MAX_BUFFERED },
  });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, body: Record<string, unknown>) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'kokoro', voice: 'af_heart', ...body }),
  });

/** The audio of each speech.audio.delta event of an SSE answer. */
async function deltas(body: Record<string, unknown>): Promise<Buffer[]> {
  const res = await post('/v1/audio/speech', { ...body, stream_format: 'sse' });
  expect(res.status).toBe(200);
  const events = (await res.text())
    .split('\n\n')
    .filter((e) => e.startsWith('data: '))
    .map((e) => JSON.parse(e.slice(6)) as { type: string; audio?: string });
  expect(events.at(-1)?.type).toBe('speech.audio.done');
  return events.flatMap((e) => (e.type === 'speech.audio.delta' ? [Buffer.from(e.audio!, 'base64')] : []));
}

test.each([
  ['/v1/audio/speech', { stream_format: 'sse' }],
  ['/dev/captioned_speech', {}],
])('%s: a reader that stops is dropped, holding at most the limit and one piece', async (path, extra) => {
  const route = `POST ${path}`;
  const body = JSON.stringify({
    model: 'kokoro',
    voice: 'af_heart',
    input: LONG,
    speed: 0.5,
    response_format: 'pcm',
    ...extra,
  });
  const socket = connect(server.port, '127.0.0.1');
  socket.pause(); // never read: the receive buffer fills, then the server's send buffer
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  const stalled = await logs.next(
    (l) => l.msg === 'client is not reading its audio; dropping the request' && l.route === route,
  );
  expect(stalled.bufferedBytes).toBeGreaterThan(MAX_BUFFERED);
  expect(stalled.bufferedBytes).toBeLessThanOrEqual(MAX_BUFFERED + PIECE_FRAME);
  const done = await logs.next((l) => l.msg === 'request done' && l.route === route && l.stalled === true);
  expect(done).toMatchObject({ status: 200 });
  socket.destroy();
});

test('G.711 and a volume are applied in slices: SSE deltas of one slice each, the same bytes as the audio body', async () => {
  const cases: [Record<string, unknown>, number][] = [
    [{ response_format: 'alaw' }, SLICE_BYTES / 2], // 8 kHz s16le in, one byte a sample out
    [{ response_format: 'mulaw' }, SLICE_BYTES / 2],
    [{ response_format: 'pcm', volume_multiplier: 0.5 }, SLICE_BYTES],
  ];
  for (const [format, slice] of cases) {
    const parts = await deltas({ input: PAUSE, ...format });
    expect(parts.length).toBeGreaterThanOrEqual(10); // 3 s of pause alone is 10 slices at 8 kHz
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(slice);
    const whole = Buffer.from(await (await post('/v1/audio/speech', { input: PAUSE, ...format })).arrayBuffer());
    expect(Buffer.concat(parts).equals(whole)).toBe(true);
  }
  // Without an encoder the pause goes as it was made: one delta (nothing to slice).
  const raw = await deltas({ input: PAUSE, response_format: 'pcm' });
  expect(Math.max(...raw.map((p) => p.length))).toBeGreaterThanOrEqual(3 * 24000 * 2);
});

test('captioned speech: a Japanese voice, or lang_code j or z, is a 400 unsupported_language logged on its route', async () => {
  const route = 'POST /dev/captioned_speech';
  const before = logs.lines.filter((l) => l.msg === 'request done' && l.route === route).length;
  const cases: [Record<string, unknown>, string][] = [
    [{ voice: 'jf_alpha' }, 'voice'],
    [{ voice: 'zf_xiaobei(2)+af_heart(1)' }, 'voice'],
    [{ lang_code: 'j' }, 'lang_code'],
    [{ lang_code: 'zh' }, 'lang_code'],
  ];
  for (const [extra, param] of cases) {
    const res = await post('/dev/captioned_speech', { input: 'Hello.', ...extra });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_language', param } });
  }
  const lines = logs.lines.filter((l) => l.msg === 'request done' && l.route === route).slice(before);
  expect(lines).toHaveLength(cases.length);
  for (const line of lines) expect(line).toMatchObject({ status: 400, code: 'unsupported_language' });
});

test("a Japanese voice with lang_code a reads the text in English's G2P: 200, logged", async () => {
  const res = await post('/v1/audio/speech', {
    voice: 'jf_alpha',
    lang_code: 'a',
    input: 'Hello.',
    response_format: 'pcm',
  });
  expect(res.status).toBe(200);
  expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  await logs.next(
    (l) =>
      l.msg === 'request done' && l.route === 'POST /v1/audio/speech' && l.voice === 'jf_alpha' && l.status === 200,
  );
});
