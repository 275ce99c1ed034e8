// Voice style vectors: kokoro-js's bundled voices (all 54 of Kokoro v1.0, byte for byte the Hub's
// files at the pinned revision: docs/design/languages.md), plus any <model dir>/voices/<id>.bin (which
// win over a bundled voice of the same name). Each file is float32 [510, 1, 256] little-endian;
// one of another size is refused at start-up (named, with its size) and never offered.
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blendKey, parseVoiceBlend, type BlendPart } from '@kokoro-speech/protocol';
import type { RefusedVoice } from './types.ts';

export const STYLE_DIM = 256;
export const STYLE_ROWS = 510;
export const VOICE_FILE_BYTES = STYLE_ROWS * STYLE_DIM * 4;
/** Blended style tensors kept (each 510 KiB): the most recent ones, so a caller's blend is mixed once. */
export const BLEND_CACHE_SIZE = 32;

/** kokoro-js ships its voices next to its dist folder and reads them with fs in Node. */
function bundledVoicesDir(): string {
  return join(dirname(fileURLToPath(import.meta.resolve('kokoro-js'))), '..', 'voices');
}

async function listBins(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith('.bin')).map((f) => f.slice(0, -4));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

export class VoiceStore {
  /** The voices offered (refused files excluded). */
  readonly ids: readonly string[];
  /** Files of the wrong size, found at start-up. */
  readonly refused: readonly RefusedVoice[];
  /** Where each voice came from. */
  readonly sources: ReadonlyMap<string, 'kokoro-js' | 'model-dir'>;
  readonly #paths: Map<string, string>;
  readonly #refusals: Map<string, string>;
  readonly #cache = new Map<string, Promise<Float32Array>>();
  /** Blends by canonical key, least recently used first (a Map keeps insertion order). */
  readonly #blends = new Map<string, Promise<Float32Array>>();

  private constructor(
    paths: Map<string, string>,
    sources: Map<string, 'kokoro-js' | 'model-dir'>,
    refused: RefusedVoice[],
  ) {
    this.#paths = paths;
    this.sources = sources;
    this.refused = refused;
    this.#refusals = new Map(refused.map((r) => [r.id, r.reason]));
    this.ids = [...paths.keys()].filter((id) => !this.#refusals.has(id)).sort();
  }

  /** `allowed` filters the bundled voices (kokoro-js's list and the Kokoro v1.0 voices it ships). */
  static async open(modelDir: string, allowed: ReadonlySet<string>): Promise<VoiceStore> {
    const paths = new Map<string, string>();
    const sources = new Map<string, 'kokoro-js' | 'model-dir'>();
    const bundled = bundledVoicesDir();
    for (const id of await listBins(bundled)) {
      if (!allowed.has(id)) continue;
      paths.set(id, join(bundled, `${id}.bin`));
      sources.set(id, 'kokoro-js');
    }
    const own = join(modelDir, 'voices');
    for (const id of await listBins(own)) {
      paths.set(id, join(own, `${id}.bin`));
      sources.set(id, 'model-dir');
    }
    const refused: RefusedVoice[] = [];
    for (const [id, file] of paths) {
      const { size } = await stat(file);
      if (size !== VOICE_FILE_BYTES) refused.push({ id, file, reason: wrongSize(file, size) });
    }
    return new VoiceStore(paths, sources, refused);
  }

  /** Known, whether offered or refused (a refused voice fails with its reason when used). */
  has(id: string): boolean {
    return this.#paths.has(id);
  }

  /** The voices of a voice or blend and their shares (throws VoiceBlendError naming the problem). */
  parts(voice: string): BlendPart[] {
    return parseVoiceBlend(voice, (id) => this.has(id));
  }

  /** Blends mixed and kept (for tests and logs). */
  get blendsCached(): number {
    return this.#blends.size;
  }

  /** The style row kokoro-js picks for a piece of `tokenCount` tokens (pads excluded); `id` may be a blend. */
  async style(id: string, tokenCount: number): Promise<Float32Array> {
    const all = this.#paths.has(id) ? await this.#load(id) : await this.#blend(this.parts(id));
    const row = Math.min(Math.max(tokenCount, 0), STYLE_ROWS - 1);
    return all.subarray(row * STYLE_DIM, (row + 1) * STYLE_DIM);
  }

  /** The weighted sum of the parts' whole [510, 1, 256] tensors, as Kokoro-FastAPI mixes them. */
  #blend(parts: BlendPart[]): Promise<Float32Array> {
    if (parts.length === 1 && parts[0]!.share === 1) return this.#load(parts[0]!.voice);
    const key = blendKey(parts);
    let pending = this.#blends.get(key);
    if (pending) {
      this.#blends.delete(key); // re-inserted below: now the most recent
    } else {
      pending = Promise.all(parts.map((p) => this.#load(p.voice))).then((tensors) => {
        const mixed = new Float32Array(STYLE_ROWS * STYLE_DIM);
        tensors.forEach((t, i) => {
          const share = parts[i]!.share;
          for (let k = 0; k < mixed.length; k++) mixed[k]! += share * t[k]!;
        });
        return mixed;
      });
      pending.catch(() => this.#blends.delete(key));
    }
    this.#blends.set(key, pending);
    if (this.#blends.size > BLEND_CACHE_SIZE) this.#blends.delete(this.#blends.keys().next().value!);
    return pending;
  }

  #load(id: string): Promise<Float32Array> {
    const path = this.#paths.get(id);
    if (!path) return Promise.reject(new Error(`unknown voice "${id}"`));
    const refusal = this.#refusals.get(id);
    if (refusal) return Promise.reject(new Error(`${refusal}; it was refused at start-up`));
    let pending = this.#cache.get(id);
    if (!pending) {
      pending = readFile(path).then((buf) => {
        if (buf.byteLength !== VOICE_FILE_BYTES) throw new Error(wrongSize(path, buf.byteLength));
        // Copy into an aligned buffer: Buffer slices may not be 4-byte aligned.
        return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      });
      pending.catch(() => this.#cache.delete(id));
      this.#cache.set(id, pending);
    }
    return pending;
  }
}

const wrongSize = (file: string, bytes: number): string =>
  `voice file ${file} has ${bytes} bytes, expected ${VOICE_FILE_BYTES} (float32 [510,1,256])`;
