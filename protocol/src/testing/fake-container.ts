// A small protocol-v1 peer for tests (not the real container): WebSocket sessions and a streamed
// POST /invocations with deterministic audio (SAMPLES_PER_CHAR samples of 16-bit PCM per character).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { BIDI_PATH, clientMessageSchema, invocationRequestSchema } from '../container.ts';

export const SAMPLES_PER_CHAR = 120;
const FRAME_BYTES = 4000;

export interface FakeContainer {
  url: string;
  wsUrl: string;
  /** Close every session's socket from the server side (SageMaker reports it as ModelStreamError). */
  closeSessions(code?: number): void;
  /** Every client message received, as parsed JSON, with the frame kind it came in. */
  received: Array<{ binary: boolean; message: unknown }>;
  close(): Promise<void>;
}

/** Audio of one utterance: sample i of utterance text t is (t.length * 7 + i) mod 32768. */
export function fakeAudio(text: string, sampleRate = 24000): Buffer {
  const samples = Math.round((text.length * SAMPLES_PER_CHAR * sampleRate) / 24000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE((text.length * 7 + i) % 32768, i * 2);
  return pcm;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

export interface FakeContainerOptions {
  /** Wait this long between audio frames (default: none, a macrotask turn): a slow synthesiser. */
  frameIntervalMs?: number;
  /** Its ready says `tracing: true` (it takes `traceparent` on `text`); default: an older server. */
  tracing?: boolean;
}

function session(
  socket: WebSocket,
  received: FakeContainer['received'],
  frameIntervalMs: number,
  tracing: boolean,
): void {
  let sampleRate: 24000 | 16000 | 8000 = 24000;
  const queue: Array<{ id: string; text: string }> = [];
  let current: string | null = null;
  let ending = false;
  let running = false;
  let assigned = 0;
  const send = (message: object) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
  send({
    type: 'ready',
    protocol: 1,
    sample_rate: 24000,
    format: 'pcm_s16le',
    voices: ['af_heart', 'am_adam'],
    ...(tracing ? { tracing: true } : {}),
  });

  const run = async () => {
    if (running) return;
    running = true;
    for (let item = queue.shift(); item; item = queue.shift()) {
      current = item.id;
      const index = assigned++;
      await tick();
      if (current !== item.id) continue;
      send({ type: 'audio_start', id: item.id, index });
      const pcm = fakeAudio(item.text, sampleRate);
      for (let offset = 0; offset < pcm.length; offset += FRAME_BYTES) {
        if (current !== item.id) break;
        socket.send(pcm.subarray(offset, offset + FRAME_BYTES));
        await (frameIntervalMs > 0
          ? new Promise((resolve) => setTimeout(resolve, frameIntervalMs))
          : new Promise(setImmediate));
      }
      if (current !== item.id) continue;
      send({
        type: 'audio_end',
        id: item.id,
        index,
        samples: pcm.length / 2,
        duration_ms: (pcm.length / 2 / sampleRate) * 1000,
        synthesis_ms: 1,
        queue_ms: 0,
      });
      current = null;
    }
    running = false;
    if (ending) send({ type: 'done' });
  };

  socket.on('message', (data, isBinary) => {
    let raw: unknown;
    try {
      raw = JSON.parse(data.toString());
    } catch {
      send({ type: 'error', id: null, code: 'invalid_message', message: 'malformed JSON' });
      return;
    }
    received.push({ binary: isBinary, message: raw });
    const parsed = clientMessageSchema.safeParse(raw);
    if (!parsed.success) {
      send({ type: 'error', id: null, code: 'invalid_message', message: parsed.error.message });
      return;
    }
    const message = parsed.data;
    if (message.type === 'config') {
      if (message.voice && !['af_heart', 'am_adam'].includes(message.voice)) {
        send({ type: 'error', id: null, code: 'unknown_voice', message: `unknown voice ${message.voice}` });
      } else if (message.sample_rate) sampleRate = message.sample_rate;
    } else if (message.type === 'text') {
      const id = message.id ?? `s${assigned}`;
      if (message.text.trim() === '') send({ type: 'error', id, code: 'invalid_message', message: 'empty text' });
      else {
        queue.push({ id, text: message.text });
        void run();
      }
    } else if (message.type === 'cancel') {
      const ids = [...(current ? [current] : []), ...queue.splice(0).map((item) => item.id)];
      current = null;
      send({ type: 'cancelled', ids });
    } else {
      ending = true;
      if (!running) send({ type: 'done' });
    }
  });
}

async function invocations(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const parsed = invocationRequestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString() || 'null'));
  if (!parsed.success || parsed.data.text.trim() === '') {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { code: 'invalid_message', message: 'bad request' } }));
    return;
  }
  const rate = parsed.data.sample_rate ?? 24000;
  response.writeHead(200, { 'content-type': `audio/L16;rate=${rate};channels=1` });
  const pcm = fakeAudio(parsed.data.text, rate);
  // Odd write sizes so that clients must re-frame at sample boundaries.
  for (let offset = 0; offset < pcm.length; offset += 1001) {
    response.write(pcm.subarray(offset, offset + 1001));
    await new Promise(setImmediate);
  }
  response.end();
}

export async function startFakeContainer(options: FakeContainerOptions = {}): Promise<FakeContainer> {
  const received: FakeContainer['received'] = [];
  const http = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/invocations') void invocations(request, response);
    else if (request.url === '/ping') response.end('{}');
    else response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http, path: BIDI_PATH });
  wss.on('connection', (socket) => session(socket, received, options.frameIntervalMs ?? 0, options.tracing === true));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}${BIDI_PATH}`,
    received,
    closeSessions: (code = 1011) => wss.clients.forEach((client) => client.close(code, 'closed by test')),
    close: async () => {
      wss.clients.forEach((client) => client.terminate());
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
