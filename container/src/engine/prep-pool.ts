// A small pool of prep worker threads; each request goes to the worker with the least pending work.
import { Worker } from 'node:worker_threads';
import { KokoroError } from '@kokoro-speech/protocol/errors';
import type { LanguageCode } from './languages.ts';
import type { PrepReply, PrepRequest } from './prep-core.ts';
import type { Script } from './script.ts';
import type { PreparedPiece } from './types.ts';

interface Pending {
  resolve: (pieces: PreparedPiece[]) => void;
  reject: (err: Error) => void;
}

class PrepWorker {
  readonly pending = new Map<number, Pending>();
  readonly ready: Promise<void>;
  isReady = false;
  readonly #worker: Worker;

  constructor(modelDir: string, wordMaps: boolean, onExit: (w: PrepWorker) => void) {
    this.#worker = new Worker(new URL('./prep-worker.ts', import.meta.url), { workerData: { modelDir, wordMaps } });
    this.ready = new Promise((resolve, reject) => {
      this.#worker.on('message', (msg: PrepReply) => {
        if ('ready' in msg) {
          this.isReady = true;
          return resolve();
        }
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        // A protocol code from the worker (a refused language, an unspeakable phoneme) survives the thread hop.
        if ('error' in msg) p.reject(msg.code ? new KokoroError(msg.code, msg.error) : new Error(msg.error));
        else p.resolve(msg.pieces);
      });
      this.#worker.on('error', (err) => {
        reject(err);
        this.#failAll(err);
      });
      this.#worker.on('exit', (code) => {
        reject(new Error(`text preparation worker exited with code ${code} before it was ready`));
        this.#failAll(new Error(`text preparation worker exited with code ${code}`));
        onExit(this);
      });
    });
  }

  send(req: PrepRequest, pending: Pending): void {
    this.pending.set(req.id, pending);
    this.#worker.postMessage(req);
  }

  terminate(): Promise<number> {
    return this.#worker.terminate();
  }

  #failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

export class PrepPool {
  #workers: PrepWorker[] = [];
  #nextId = 0;
  #closed = false;
  readonly #modelDir: string;
  readonly #wordMaps: boolean;

  /** `wordMaps: false` skips mapping words to tokens (no word timings; measured in the word bench). */
  constructor(modelDir: string, size: number, wordMaps = true) {
    this.#modelDir = modelDir;
    this.#wordMaps = wordMaps;
    for (let i = 0; i < Math.max(1, size); i++) this.#spawn();
  }

  get size(): number {
    return this.#workers.length;
  }

  /** Resolves once every worker has loaded the tokenizer and warmed the phonemiser. */
  ready(): Promise<void> {
    return Promise.all(this.#workers.map((w) => w.ready)).then(() => undefined);
  }

  prepare(script: Script, lang: LanguageCode): Promise<PreparedPiece[]> {
    if (this.#closed) return Promise.reject(new Error('the engine is closed'));
    const worker = this.#workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    return new Promise((resolve, reject) => worker.send({ id: this.#nextId++, script, lang }, { resolve, reject }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    const workers = this.#workers;
    this.#workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  #spawn(): void {
    // A worker that crashes after start-up is replaced, so one bad input cannot take text
    // preparation down for good; one that never started is not (that would loop).
    const worker = new PrepWorker(this.#modelDir, this.#wordMaps, (dead) => {
      const i = this.#workers.indexOf(dead);
      if (i < 0 || this.#closed) return;
      this.#workers.splice(i, 1);
      if (dead.isReady) this.#spawn();
    });
    worker.ready.catch(() => {}); // surfaced through ready() and pending requests
    this.#workers.push(worker);
  }
}
