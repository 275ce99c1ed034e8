// Where persisted sessions live: Strands' own storage backends (LocalFileStorage in local mode,
// S3Storage on AWS: the foundation bucket under a sessions prefix, encrypted by the bucket's KMS
// key), behind a wrapper that keeps a broken store from failing turns. Strands' session manager
// awaits its store, so an unreachable one would fail or stall the first turn of each session:
// here reads and writes are bounded in time, a failure is logged once (until the store works
// again), a failed read starts the conversation afresh and a failed write is dropped.
import { LocalFileStorage, S3Storage } from '@strands-agents/sdk/storage';
import type { Storage } from '@strands-agents/sdk';
import { errorMessage } from '@kokoro-speech/protocol/errors';

export type SessionStoreConfig =
  { kind: 'file'; dir: string } | { kind: 's3'; bucket: string; prefix: string; region?: string };

export function openSessionStore(config: SessionStoreConfig): Storage {
  if (config.kind === 'file') return new LocalFileStorage(config.dir);
  return new S3Storage(config.bucket, {
    prefix: config.prefix,
    ...(config.region === undefined ? {} : { region: config.region }),
  });
}

/** Reads `file:///dir` or `s3://bucket/prefix` (SESSION_STORE). */
export function parseSessionStore(value: string, region?: string): SessionStoreConfig {
  const url = new URL(value);
  if (url.protocol === 'file:') {
    if (url.host !== '')
      throw new TypeError(`a file: session store takes an absolute path (file:///dir), not ${value}`);
    return { kind: 'file', dir: decodeURIComponent(url.pathname) };
  }
  if (url.protocol === 's3:') {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.host)) throw new TypeError(`not an S3 bucket name: ${url.host}`);
    const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
    return { kind: 's3', bucket: url.host, prefix: prefix ? `${prefix}/` : '', ...(region ? { region } : {}) };
  }
  throw new TypeError(`session store must be file:///dir or s3://bucket/prefix, not ${value}`);
}

export interface ResilientStorageOptions {
  /** Called with the first failure (and again after the store recovered and failed anew). */
  warn: (message: string, error: unknown) => void;
  readTimeoutMs?: number;
  writeTimeoutMs?: number;
}

export class ResilientStorage implements Storage {
  readonly #inner: Storage;
  readonly #options: Required<ResilientStorageOptions>;
  #failing = false;

  constructor(inner: Storage, options: ResilientStorageOptions) {
    this.#inner = inner;
    this.#options = { readTimeoutMs: 2_000, writeTimeoutMs: 10_000, ...options };
  }

  async #call<T>(what: string, ms: number, run: () => Promise<T>, fallback: T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      });
      const value = await Promise.race([run(), timeout]);
      this.#failing = false;
      return value;
    } catch (error) {
      if (!this.#failing) {
        this.#failing = true;
        this.#options.warn(
          `session store unavailable (${what}: ${errorMessage(error)}); ` +
            'turns go on without persistence until it answers again',
          error,
        );
      }
      return fallback;
    } finally {
      clearTimeout(timer);
    }
  }

  read(key: string): Promise<Uint8Array | null> {
    return this.#call(`read ${key}`, this.#options.readTimeoutMs, () => this.#inner.read(key), null);
  }
  write(key: string, data: Uint8Array): Promise<void> {
    return this.#call(`write ${key}`, this.#options.writeTimeoutMs, () => this.#inner.write(key, data), undefined);
  }
  delete(key: string): Promise<void> {
    return this.#call(`delete ${key}`, this.#options.writeTimeoutMs, () => this.#inner.delete(key), undefined);
  }
  list(prefix: string): Promise<string[]> {
    return this.#call(`list ${prefix}`, this.#options.readTimeoutMs, () => this.#inner.list(prefix), []);
  }
  /** As read, but undefined when the store did not answer (absent, null, and unknown differ). */
  readChecked(key: string): Promise<Uint8Array | null | undefined> {
    return this.#call<Uint8Array | null | undefined>(
      `read ${key}`,
      this.#options.readTimeoutMs,
      () => this.#inner.read(key),
      undefined,
    );
  }
  /** As list, but undefined when the store did not answer. */
  listChecked(prefix: string): Promise<string[] | undefined> {
    return this.#call<string[] | undefined>(
      `list ${prefix}`,
      this.#options.readTimeoutMs,
      () => this.#inner.list(prefix),
      undefined,
    );
  }
}
