import { describe, expect, test } from '@jest/globals';
import {
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
