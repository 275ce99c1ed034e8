// The bidirectional protocol v1 over a real loopback WebSocket, on the stand-in model through the
// real fixture.engine. A small simulated model delay keeps utterances in flight long enough to cancel.
import { describe, expect, test } from '@jest/globals';
import {
  MAX_AUDIO_FRAME_BYTES,
  type AudioEndMessage,
  type ErrorMessage,
  type ServerMessage,
} from '@kokoro-speech/protocol';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { createLogger } from '@kokoro-speech/protocol/server';
import { fixtureSamples, logCapture } from '../testing/test-support.ts';
import { suiteServer } from '../testing/fixture-server.ts';
import { withSimulatedDelay } from '../testing/simulated-delay.ts';

const logs = logCapture();

const fixture = suiteServer(() => ({
  logger: createLogger('kokoro-server', 'warn', logs.stream),
  wrapEngine: (loaded) => withSimulatedDelay(loaded, 15, 0),
  config: { maxTextChars: 1000, maxWsMessageBytes: 8192, maxWsBufferedBytes: 1024 * 1024 },
}));

const connect = () => fixture.connect();

async function samplesFor(text: string, speed = 1): Promise<number> {
  const pieces = await fixture.engine.prepare(text, 'af_heart');
  return pieces.reduce((n, p) => n + fixtureSamples(p.tokenIds.length, speed), 0);
}

const SENTENCES = [
  'Sure, I can help with that.',
  'Your order shipped this morning.',
  'It should arrive on Thursday.',
  'Is there anything else?',
  'The tracking number is in your email.',
];

test('ready on connect, then 20 pipelined utterances come back in order with exact sample counts', async () => {
  const c = await connect();
  const ready = c.messages[0]!;
  expect(ready).toMatchObject({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le' });
  expect(ready.type === 'ready' && ready.voices).toContain('af_heart');

  const texts = Array.from({ length: 20 }, (_, i) => `${SENTENCES[i % SENTENCES.length]} Number ${i + 1}.`);
  texts.forEach((text, i) => c.send({ type: 'text', text, id: `t${i}` }));
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done');

  const ends = c.messages.filter((m): m is AudioEndMessage => m.type === 'audio_end');
  expect(ends.map((m) => m.id)).toEqual(texts.map((_, i) => `t${i}`));
  expect(ends.map((m) => m.index)).toEqual(texts.map((_, i) => i));
  const audio = c.audioById();
  for (const [i, text] of texts.entries()) {
    const expected = await samplesFor(text);
    expect(ends[i]!.samples).toBe(expected);
    expect(audio.get(`t${i}`)!.length).toBe(expected * 2);
    expect(ends[i]!.duration_ms).toBeCloseTo((expected / 24000) * 1000, 0);
    expect(ends[i]!.synthesis_ms).toBeGreaterThan(0);
  }
  expect(c.messages.at(-1)).toEqual({ type: 'done' });
  expect(c.messages.some((m) => m.type === 'error')).toBe(false);
});

test('JSON in binary frames; config applies to later messages; frames stay within 32 KiB', async () => {
  const c = await connect();
  const long = 'This sentence is long enough that its audio needs more than one binary frame to carry it all.';
  c.send({ type: 'config', format: 'wav', sample_rate: 16000, speed: 1.25 }, true);
  c.send({ type: 'text', text: long }, true);
  c.send({ type: 'config', format: 'mulaw' }, true);
  c.send({ type: 'text', text: long, id: 'second' }, true);
  c.send({ type: 'end' }, true);
  await c.next((m) => m.type === 'done');
  const [first, second] = c.messages.filter((m): m is AudioEndMessage => m.type === 'audio_end');
  expect(first!.id).toBe('u0'); // assigned by the server
  expect(second!.id).toBe('second');
  const native = await samplesFor(long, 1.25);
  expect(first!.samples).toBe(Math.ceil((native * 16000) / 24000));
  expect(second!.samples).toBe(Math.ceil((native * 8000) / 24000));
  const audio = c.audioById();
  const wav = audio.get('u0')!;
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.readUInt32LE(24)).toBe(16000);
  expect(wav.length).toBe(44 + first!.samples * 2);
  expect(audio.get('second')!.length).toBe(second!.samples);
  const frames = c.frames.filter((f) => f.kind === 'audio');
  expect(frames.length).toBeGreaterThan(2);
  for (const f of frames) expect(f.bytes.length).toBeLessThanOrEqual(MAX_AUDIO_FRAME_BYTES);
});

test('cancel mid-stream: cancelled names the dropped ids and nothing stale arrives after it', async () => {
  const c = await connect();
  for (let i = 0; i < 6; i++)
    c.send({ type: 'text', text: `${SENTENCES[i % 5]} ${SENTENCES[(i + 1) % 5]}`, id: `old${i}` });
  await c.next((m) => m.type === 'audio_start');
  c.send({ type: 'cancel' });
  const cancelled = await c.next((m) => m.type === 'cancelled');
  expect(cancelled.type === 'cancelled' && cancelled.ids.length).toBeGreaterThan(0);
  const at = c.frames.findIndex((f) => f.kind === 'json' && f.message.type === 'cancelled');
  c.send({ type: 'text', text: 'Fresh start.', id: 'new' });
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done', at);

  const after = c.frames.slice(at + 1);
  const afterJson = after.flatMap((f) => (f.kind === 'json' ? [f.message] : []));
  expect(afterJson.map((m) => m.type)).toEqual(['audio_start', 'audio_end', 'done']);
  expect(afterJson.slice(0, 2).every((m) => 'id' in m && m.id === 'new')).toBe(true);
  // The only audio after `cancelled` sits inside the new utterance.
  const firstAudio = after.findIndex((f) => f.kind === 'audio');
  expect(after[firstAudio - 1]).toMatchObject({ kind: 'json', message: { type: 'audio_start', id: 'new' } });
  const newEnd = afterJson[1] as AudioEndMessage;
  expect(newEnd.samples).toBe(await samplesFor('Fresh start.'));
  // Every utterance that had started before the cancel either ended before it or was named in it.
  const before = c.messages.slice(0, c.messages.indexOf(cancelled));
  const started = before.flatMap((m) => (m.type === 'audio_start' ? [m.id] : []));
  const ended = new Set(before.flatMap((m) => (m.type === 'audio_end' ? [m.id] : [])));
  for (const id of started)
    expect(ended.has(id) || (cancelled.type === 'cancelled' && cancelled.ids.includes(id))).toBe(true);
});

test('end with nothing queued answers done at once; text after end is refused', async () => {
  const c = await connect();
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done');
  c.send({ type: 'text', text: 'Too late.', id: 'late' });
  const error = await c.next<ErrorMessage>((m) => m.type === 'error');
  expect(error).toMatchObject({ id: 'late', code: 'invalid_message' });
  expect(error.message).toMatch(/after end/);
});

test('ready says tracing; a text with a traceparent is spoken, a malformed one too (ignored), a huge one refused', async () => {
  const c = await connect();
  expect(c.messages[0]).toMatchObject({ type: 'ready', tracing: true });
  c.send({
    type: 'text',
    text: 'Traced.',
    id: 't1',
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  });
  c.send({ type: 'text', text: 'Badly traced.', id: 't2', traceparent: 'not-a-traceparent' });
  c.send({ type: 'text', text: 'Too much.', id: 't3', traceparent: 'x'.repeat(300) });
  c.send({ type: 'end' });
  await c.next((m) => m.type === 'done');
  const ended = c.messages.filter((m): m is AudioEndMessage => m.type === 'audio_end').map((m) => m.id);
  expect(ended).toEqual(['t1', 't2']);
  expect(c.messages.find((m) => m.type === 'error')).toMatchObject({ id: 't3', code: 'invalid_message' });
});

test('a client that stops reading its audio is dropped, and the server carries on', async () => {
  const ws = new WebSocket(fixture.server.wsUrl);
  let raw: { resume(): void } | undefined;
  ws.once('upgrade', (res) => {
    raw = res.socket;
    res.socket.pause(); // reads nothing from here on
  });
  await new Promise((resolve) => ws.once('open', resolve));
  const words = 'this long answer keeps the model busy for a good while and makes plenty of audio';
  const text = `${Array.from({ length: 12 }, () => words).join(', ')}.`;
  for (let i = 0; i < 12; i++) ws.send(JSON.stringify({ type: 'text', text, id: `long${i}` }));
  let dropped: Record<string, unknown> | undefined;
  for (let i = 0; i < 1000 && !dropped; i++) {
    dropped = logs.lines.find((l) => l.msg === 'client is not reading its audio; dropping the session');
    if (!dropped) await sleep(20);
  }
  expect(dropped?.bufferedBytes).toBeGreaterThan(1024 * 1024);
  const closed = new Promise<number>((resolve) => ws.once('close', resolve));
  ws.on('error', () => {});
  raw!.resume();
  expect(await closed).toBe(1006);
  const c = await connect();
  c.send({ type: 'text', text: 'Still serving.', id: 'ok' });
  expect((await c.next<AudioEndMessage>((m) => m.type === 'audio_end')).id).toBe('ok');
});

test('WebSocket pings are answered', async () => {
  const c = await connect();
  const pong = new Promise<Buffer>((resolve) => c.ws.once('pong', resolve));
  c.ws.ping(Buffer.from('are you there'));
  expect((await pong).toString()).toBe('are you there');
});

describe('every bad message gets an error and the session carries on', () => {
  const cases: [string, string | object, boolean, Partial<ErrorMessage>, RegExp][] = [
    ['malformed JSON', '{"type": "text", "text": ', false, { id: null, code: 'invalid_message' }, /malformed JSON/],
    ['malformed JSON in a binary frame', '\u0000\u0001', true, { id: null, code: 'invalid_message' }, /malformed JSON/],
    ['not an object', '[1,2]', false, { id: null, code: 'invalid_message' }, /JSON object/],
    [
      'unknown type',
      { type: 'speak', text: 'hi' },
      false,
      { id: null, code: 'invalid_message' },
      /unknown message type "speak"/,
    ],
    ['missing type', { text: 'hi' }, false, { id: null, code: 'invalid_message' }, /unknown message type null/],
    [
      'wrong field type in text',
      { type: 'text', text: 42, id: 'n42' },
      false,
      { id: 'n42', code: 'invalid_message' },
      /text/,
    ],
    [
      'wrong field type in config',
      { type: 'config', speed: 'fast' },
      false,
      { id: null, code: 'invalid_message' },
      /speed/,
    ],
    ['speed out of range', { type: 'config', speed: 9 }, false, { id: null, code: 'invalid_message' }, /speed/],
    ['unknown field', { type: 'cancel', now: true }, false, { id: null, code: 'invalid_message' }, /now/],
    ['unknown voice', { type: 'config', voice: 'xx_nobody' }, false, { id: null, code: 'unknown_voice' }, /xx_nobody/],
    [
      'empty text',
      { type: 'text', text: '   ', id: 'blank' },
      false,
      { id: 'blank', code: 'invalid_message' },
      /empty/,
    ],
    [
      'oversized text',
      { type: 'text', text: 'a'.repeat(1001), id: 'big' },
      false,
      { id: 'big', code: 'text_too_long' },
      /1001 characters; the limit is 1000/,
    ],
    [
      'oversized message',
      { type: 'text', text: 'a'.repeat(9000) },
      false,
      { id: null, code: 'invalid_message' },
      /limit is 8192/,
    ],
  ];

  test.each(cases)('%s', async (_name, message, binary, expected, pattern) => {
    const c = await connect();
    c.send(message, binary);
    const error = await c.next<ErrorMessage>((m) => m.type === 'error');
    expect(error).toMatchObject(expected);
    expect(error.message).toMatch(pattern);
    c.send({ type: 'text', text: 'Still here.', id: 'after' });
    const end = await c.next<AudioEndMessage>((m) => m.type === 'audio_end');
    expect(end.id).toBe('after');
  });

  test('a text frame of invalid UTF-8 is an invalid_message error (the contract), not a 1007 close', async () => {
    const c = await connect();
    c.ws.send(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), { binary: false }); // {"\xff\xfe"}
    const error = await c.next<ErrorMessage>((m) => m.type === 'error');
    expect(error).toMatchObject({ id: null, code: 'invalid_message' });
    expect(error.message).toMatch(/not valid UTF-8/);
    c.send({ type: 'text', text: 'Still here.', id: 'after-utf8' });
    expect((await c.next<AudioEndMessage>((m) => m.type === 'audio_end')).id).toBe('after-utf8');
  });

  test('an unknown voice leaves the previous settings in force', async () => {
    const c = await connect();
    c.send({ type: 'config', format: 'mulaw' });
    c.send({ type: 'config', voice: 'xx_nobody', format: 'wav' });
    await c.next((m) => m.type === 'error');
    c.send({ type: 'text', text: 'Still mu-law.', id: 'm' });
    const end = await c.next<AudioEndMessage>((m) => m.type === 'audio_end');
    expect(c.audioById().get('m')!.length).toBe(end.samples); // one byte per sample: mulaw, no WAV header
  });

  test('a model run that fails is an internal error naming the utterance', async () => {
    const c = await connect();
    c.send({ type: 'config', voice: 'zz_broken' });
    c.send({ type: 'text', text: 'Broken voice.', id: 'b1' });
    const error = await c.next<ErrorMessage>((m) => m.type === 'error');
    expect(error).toMatchObject({ id: 'b1', code: 'internal' });
    expect(error.message).toMatch(/zz_broken\.bin has 1000 bytes/);
    c.send({ type: 'config', voice: 'af_heart' });
    c.send({ type: 'text', text: 'Good voice.', id: 'g1' });
    c.send({ type: 'end' });
    await c.next((m: ServerMessage) => m.type === 'done');
    expect(c.messages.filter((m) => m.type === 'audio_end').map((m) => 'id' in m && m.id)).toEqual(['g1']);
  });
});
