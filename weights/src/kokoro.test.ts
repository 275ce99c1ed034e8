import { describe, expect, test } from '@jest/globals';
import {
  exportIncludes,
  KOKORO_EXPORTS,
  KOKORO_ONNX_PINNED,
  KOKORO_ONNX_REVISION,
  KOKORO_SYNC_INCLUDES,
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
