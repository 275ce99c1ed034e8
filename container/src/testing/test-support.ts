// Test support for the server suites: a stand-in model folder and a WebSocket client that records
// every frame in order (JSON messages parsed and checked against the protocol, audio as Buffers).
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { writeFixtureModel, SAMPLES_PER_TOKEN, type FixtureOptions } from '../fixture/index.ts';
import { serverMessageSchema, type ServerMessage } from '@kokoro-speech/protocol';

export { SAMPLES_PER_TOKEN };

/** A stand-in model folder with one broken voice file (a real bad input for `internal`). */
export async function fixtureModelDir(
  options: FixtureOptions = {},
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'kokoro-server-'));
  await writeFixtureModel(dir, options);
  await mkdir(join(dir, 'voices'));
  await writeFile(join(dir, 'voices', 'zz_broken.bin'), new Uint8Array(1000));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Samples the stand-in model makes for a piece of `tokens` tokens (it adds the two pads). */
export const fixtureSamples = (tokens: number, speed = 1) => Math.floor(((tokens + 2) * SAMPLES_PER_TOKEN) / speed);

export type Frame = { kind: 'json'; message: ServerMessage } | { kind: 'audio'; bytes: Buffer };

export class TestClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  #waiters: (() => void)[] = [];
  readonly closed: Promise<number>;

  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.frames.push({ kind: 'audio', bytes: data });
      else this.frames.push({ kind: 'json', message: serverMessageSchema.parse(JSON.parse(data.toString('utf8'))) });
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code) => {
        resolve(code);
        for (const wake of this.#waiters.splice(0)) wake();
      }),
    );
  }

  static async connect(url: string): Promise<TestClient> {
    const ws = new WebSocket(url);
    const client = new TestClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    await client.next((m) => m.type === 'ready');
    return client;
  }

  send(message: unknown, binary = false): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.ws.send(binary ? Buffer.from(text) : text, { binary });
  }

  get messages(): ServerMessage[] {
    return this.frames.flatMap((f) => (f.kind === 'json' ? [f.message] : []));
  }

  /** Waits for the first JSON message at or after frame `from` matching `match`. */
  async next<T extends ServerMessage>(match: (m: ServerMessage) => boolean, from = 0): Promise<T> {
    for (;;) {
      for (let i = from; i < this.frames.length; i++) {
        const f = this.frames[i]!;
        if (f.kind === 'json' && match(f.message)) return f.message as T;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error('socket closed while waiting');
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Audio bytes of each utterance id, from its audio_start to its audio_end. */
  audioById(): Map<string, Buffer> {
    const out = new Map<string, Buffer[]>();
    let current: string | null = null;
    for (const f of this.frames) {
      if (f.kind === 'audio') {
        if (current === null) throw new Error('audio outside an utterance');
        out.get(current)!.push(f.bytes);
      } else if (f.message.type === 'audio_start') {
        if (current !== null) throw new Error(`utterance ${f.message.id} started inside ${current}`);
        current = f.message.id;
        out.set(current, []);
      } else if (f.message.type === 'audio_end') {
        if (current !== f.message.id) throw new Error(`audio_end ${f.message.id} does not close ${current}`);
        current = null;
      }
    }
    return new Map([...out].map(([id, parts]) => [id, Buffer.concat(parts)]));
  }

  close(): Promise<number> {
    this.ws.close();
    return this.closed;
  }
}

export { logCapture } from '@kokoro-speech/protocol/testing';
