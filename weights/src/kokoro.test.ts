import { describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  exportIncludes,
  KOKORO_EXPORTS,
  KOKORO_ONNX_PINNED,
  KOKORO_ONNX_REVISION,
  KOKORO_SYNC_INCLUDES,
  KOKORO_VOICE_DIGESTS,
  KOKORO_VOICES_PINNED,
  kokoroDtypesIn,
  kokoroIncludes,
  type KokoroDtype,
} from './kokoro.ts';

describe('kokoro pins', () => {
  test('the revision is a commit, not a branch', () => {
    expect(KOKORO_ONNX_REVISION).toMatch(/^[0-9a-f]{40}$/);
  });
  test('q8 and fp32 take the config, tokenizer files and one ONNX file', () => {
    expect(kokoroIncludes('q8')).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
    ]);
    expect(kokoroIncludes('fp32')).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model.onnx',
    ]);
    expect(kokoroIncludes('q8', { voices: true })).toContain('voices/*.bin');
  });
  test('an unknown dtype is refused by name', () => {
    expect(() => kokoroIncludes('int3' as KokoroDtype)).toThrow(/unknown Kokoro dtype "int3"/);
  });
  test('every local-mode file has a pinned size and digest, and the stack syncs them all', () => {
    for (const path of new Set([...kokoroIncludes('q8'), ...kokoroIncludes('fp32')])) {
      expect(KOKORO_ONNX_PINNED[path]?.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(KOKORO_SYNC_INCLUDES).toContain(path);
    }
  });
  test('kokoroDtypesIn names the dtypes whose ONNX file an include list takes', () => {
    expect(kokoroDtypesIn(KOKORO_SYNC_INCLUDES)).toEqual(['fp32', 'q8']);
    expect(kokoroDtypesIn(['*.json', 'onnx/model_q4*.onnx'])).toEqual(['q4', 'q4f16']);
    expect(kokoroDtypesIn(['onnx/**'])).toEqual(['fp32', 'fp16', 'q8', 'q4', 'q4f16']);
    expect(kokoroDtypesIn(['config.json', 'voices/*.bin'])).toEqual([]);
    expect(kokoroDtypesIn([])).toHaveLength(5); // an empty list takes every file
  });
});

describe('the timestamped export (an option)', () => {
  test('pinned to a commit, with a size and digest for every file local mode takes', () => {
    const t = KOKORO_EXPORTS.timestamped;
    expect(t.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(t.durations).toBe(true);
    for (const dtype of ['q8', 'fp32'] as const) {
      const { include } = exportIncludes('timestamped', dtype);
      for (const path of include) expect(t.pinned[path]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // Same config and tokenizer as the standard export; different model files.
    expect(t.pinned['tokenizer.json']).toEqual(KOKORO_ONNX_PINNED['tokenizer.json']);
    expect(t.pinned['onnx/model.onnx']!.sha256).not.toBe(KOKORO_ONNX_PINNED['onnx/model.onnx']!.sha256);
  });
  test('a dtype whose file has no pin is refused, not fetched unverified', () => {
    expect(() => exportIncludes('timestamped', 'q4')).toThrow(
      /timestamped export has no pinned size and digest for onnx\/model_q4\.onnx .*refused/,
    );
    expect(() => exportIncludes('nope' as never, 'q8')).toThrow(/unknown Kokoro export "nope"/);
  });
});

describe('the v1.0 voices', () => {
  test('54 voices, each pinned with the voice file size (float32 [510, 1, 256])', () => {
    const ids = Object.keys(KOKORO_VOICE_DIGESTS);
    expect(ids).toHaveLength(54);
    for (const id of ids) expect(id).toMatch(/^[abefhijpz][fm]_[a-z]+$/);
    for (const [path, pin] of Object.entries(KOKORO_VOICES_PINNED)) {
      expect(path).toMatch(/^voices\/[a-z]{2}_[a-z]+\.bin$/);
      expect(pin).toEqual({ size: 510 * 256 * 4, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    }
    // Every language letter has voices; af.bin (the v0.19 blend, 524,288 bytes) is not one of them.
    expect(new Set(ids.map((id) => id[0])).size).toBe(9);
    expect(KOKORO_VOICES_PINNED['voices/af.bin']).toBeUndefined();
  });

  test('kokoro-js 1.2.1 ships the same 54 files, byte for byte (the container offers those)', async () => {
    const dir = join(dirname(fileURLToPath(import.meta.resolve('kokoro-js'))), '..', 'voices');
    for (const [id, sha256] of Object.entries(KOKORO_VOICE_DIGESTS)) {
      const bytes = await readFile(join(dir, `${id}.bin`));
      expect([id, createHash('sha256').update(bytes).digest('hex')]).toEqual([id, sha256]);
    }
  });

  test('the standard export checks voices against their pins when a sync takes them', () => {
    expect(KOKORO_EXPORTS.standard.pinned['voices/ef_dora.bin']).toEqual(KOKORO_VOICES_PINNED['voices/ef_dora.bin']);
    expect(KOKORO_SYNC_INCLUDES).toContain('voices/*.bin');
  });
});
