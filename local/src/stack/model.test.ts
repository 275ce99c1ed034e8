// Where local mode's weights come from: the stand-in (--offline), KOKORO_MODEL_DIR, the user cache
// (no network when the pinned revision is there), else a clear error naming the ways out.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  buildManifest,
  defaultModelDir,
  KOKORO_ONNX_PINNED,
  KOKORO_ONNX_REPO,
  KOKORO_ONNX_REVISION,
  KOKORO_TIMESTAMPED_PINNED,
  KOKORO_TIMESTAMPED_REPO,
  KOKORO_TIMESTAMPED_REVISION,
  kokoroIncludes,
  MANIFEST_NAME,
  serializeManifest,
} from '@kokoro-speech/weights';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { resolveModel, WeightsUnavailableError } from './model.ts';

let scratch: string;
let unreachable: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'local-model-'));
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  unreachable = `http://127.0.0.1:${(s.address() as net.AddressInfo).port}`;
  await new Promise<void>((r) => s.close(() => r()));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('resolveModel', () => {
  test('--offline writes the stand-in into a temp folder (fp32) and removes it afterwards', async () => {
    const model = await resolveModel({ offline: true, dtype: 'q8', env: {} });
    expect(model).toMatchObject({ kind: 'stand-in', dtype: 'fp32' });
    expect(model.description).toMatch(/tone/);
    expect(existsSync(join(model.dir, 'onnx', 'model.onnx'))).toBe(true);
    await model.dispose();
    expect(existsSync(model.dir)).toBe(false);
  });

  test('KOKORO_MODEL_DIR is used as is, once it holds the files for the dtype', async () => {
    // A complete q8 folder (the stand-in's files, its ONNX model under the q8 name), and no fp32 model.
    const dir = join(scratch, 'own');
    await writeFixtureModel(dir);
    await rename(join(dir, 'onnx', 'model.onnx'), join(dir, 'onnx', 'model_quantized.onnx'));
    await expect(resolveModel({ offline: false, dtype: 'q8', modelDir: dir, env: {} })).resolves.toMatchObject({
      kind: 'kokoro',
      dir,
      dtype: 'q8',
    });
    await expect(resolveModel({ offline: false, dtype: 'fp32', modelDir: dir, env: {} })).rejects.toThrow(
      /has no onnx\/model\.onnx \(needed for --dtype fp32\)/,
    );
  });

  test('the pinned revision in the user cache is used without any network', async () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'cache'), HF_ENDPOINT: unreachable };
    const dir = defaultModelDir(KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, env);
    expect(dir.startsWith(join(scratch, 'cache', 'kokoro-speech'))).toBe(true);
    const files = kokoroIncludes('q8').map((path) => ({ path, ...KOKORO_ONNX_PINNED[path]! }));
    for (const f of files) {
      await mkdir(dirname(join(dir, f.path)), { recursive: true });
      await writeFile(join(dir, f.path), '');
      await truncate(join(dir, f.path), f.size); // sparse: the sizes are what the cache check reads
    }
    await writeFile(
      join(dir, MANIFEST_NAME),
      serializeManifest(buildManifest(KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, files)),
    );
    await expect(resolveModel({ offline: false, dtype: 'q8', env })).resolves.toMatchObject({
      kind: 'kokoro',
      dir,
      dtype: 'q8',
    });
  });

  test('no weights and no way to download them: an error that names --offline and the other options', async () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'empty-cache'), HF_ENDPOINT: unreachable };
    const error = await resolveModel({ offline: false, dtype: 'fp32', env, retry: { attempts: 1 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WeightsUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain(unreachable);
    for (const option of [
      'npm start -- --offline',
      'KOKORO_MODEL_DIR=',
      'HF_ENDPOINT=',
      join(scratch, 'empty-cache', 'kokoro-speech'),
    ]) {
      expect(message).toContain(option);
    }
    // What to copy there, and that copies are checked.
    expect(message).toContain('copy config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx of revision');
    expect(message).toContain('checked against the pinned SHA-256 digests, then used without the network');
  });

  test('files copied into the cache that are not the pinned ones are named when no download can replace them', async () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'copied-cache'), HF_ENDPOINT: unreachable };
    const dir = defaultModelDir(KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, env);
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'config.json'), '{"model_type":"style_text_to_speech_2"}');
    await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), 'not the model');
    const error = await resolveModel({ offline: false, dtype: 'q8', env, retry: { attempts: 1 } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WeightsUnavailableError);
    expect((error as Error).message).toContain(
      `In ${dir}, config.json, onnx/model_quantized.onnx are not the pinned files (another revision, or damaged).`,
    );
  });

  test('--export timestamped: its own pinned revision, from the cache when there, else an error naming it', async () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'cache-ts'), HF_ENDPOINT: unreachable };
    const missing = await resolveModel({
      offline: false,
      dtype: 'q8',
      export: 'timestamped',
      env,
      retry: { attempts: 1 },
    }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(WeightsUnavailableError);
    expect((missing as Error).message).toContain(
      `${KOKORO_TIMESTAMPED_REPO} @ ${KOKORO_TIMESTAMPED_REVISION.slice(0, 12)}`,
    );
    const dir = defaultModelDir(KOKORO_TIMESTAMPED_REPO, KOKORO_TIMESTAMPED_REVISION, env);
    const files = kokoroIncludes('q8').map((path) => ({ path, ...KOKORO_TIMESTAMPED_PINNED[path]! }));
    for (const f of files) {
      await mkdir(dirname(join(dir, f.path)), { recursive: true });
      await writeFile(join(dir, f.path), '');
      await truncate(join(dir, f.path), f.size);
    }
    await writeFile(
      join(dir, MANIFEST_NAME),
      serializeManifest(buildManifest(KOKORO_TIMESTAMPED_REPO, KOKORO_TIMESTAMPED_REVISION, files)),
    );
    const model = await resolveModel({ offline: false, dtype: 'q8', export: 'timestamped', env });
    expect(model).toMatchObject({ kind: 'kokoro', dir, description: 'Kokoro-82M q8, timestamped export' });
  });
});
