// Voice style vectors: kokoro-js's bundled voices, plus any <model dir>/voices/<id>.bin (which
// win over a bundled voice of the same name). Each file is float32 [510, 1, 256] little-endian.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STYLE_DIM = 256;
export const STYLE_ROWS = 510;
const VOICE_FILE_BYTES = STYLE_ROWS * STYLE_DIM * 4;

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
  readonly ids: readonly string[];
  readonly #paths: Map<string, string>;
  readonly #cache = new Map<string, Promise<Float32Array>>();

  private constructor(paths: Map<string, string>) {
    this.#paths = paths;
    this.ids = [...paths.keys()].sort();
  }

  /** `allowed` filters the bundled voices (kokoro-js only vouches for its own list). */
  static async open(modelDir: string, allowed: ReadonlySet<string>): Promise<VoiceStore> {
    const paths = new Map<string, string>();
    const bundled = bundledVoicesDir();
    for (const id of await listBins(bundled)) if (allowed.has(id)) paths.set(id, join(bundled, `${id}.bin`));
    const own = join(modelDir, 'voices');
    for (const id of await listBins(own)) paths.set(id, join(own, `${id}.bin`));
    return new VoiceStore(paths);
  }

  has(id: string): boolean {
    return this.#paths.has(id);
  }

  /** The style row kokoro-js picks for a piece of `tokenCount` tokens (pads excluded). */
  async style(id: string, tokenCount: number): Promise<Float32Array> {
    const all = await this.#load(id);
    const row = Math.min(Math.max(tokenCount, 0), STYLE_ROWS - 1);
    return all.subarray(row * STYLE_DIM, (row + 1) * STYLE_DIM);
  }

  #load(id: string): Promise<Float32Array> {
    const path = this.#paths.get(id);
    if (!path) return Promise.reject(new Error(`unknown voice "${id}"`));
    let pending = this.#cache.get(id);
    if (!pending) {
      pending = readFile(path).then((buf) => {
        if (buf.byteLength !== VOICE_FILE_BYTES) {
          throw new Error(
            `voice file ${path} has ${buf.byteLength} bytes, expected ${VOICE_FILE_BYTES} (float32 [510,1,256])`,
          );
        }
        // Copy into an aligned buffer: Buffer slices may not be 4-byte aligned.
        return new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
      });
      pending.catch(() => this.#cache.delete(id));
      this.#cache.set(id, pending);
    }
    return pending;
  }
}

/** kokoro-js's phonemiser language for a voice: the id's first letter, 'b' = British, else American. */
export const voiceLanguage = (voice: string): 'a' | 'b' => (voice.startsWith('b') ? 'b' : 'a');
