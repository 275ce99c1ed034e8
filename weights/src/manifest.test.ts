import { describe, expect, test } from '@jest/globals';
import type { RepoFile } from './hub.ts';
import { buildManifest, parseManifest, sameFiles, selectFiles, serializeManifest } from './manifest.ts';

const file = (path: string): RepoFile => ({ path, size: 1, sha256: null, blobId: 'b' });
const repoFiles = [
  'config.json',
  'tokenizer.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
  'voices/af_heart.bin',
  'voices/am_adam.bin',
  'README.md',
].map(file);
const commit = 'a'.repeat(40);
const digest = 'b'.repeat(64);

describe('selectFiles', () => {
  test('keeps files matching any glob; * stays inside a folder', () => {
    const paths = selectFiles(repoFiles, ['*.json', 'voices/*.bin']).map((f) => f.path);
    expect(paths).toEqual(['config.json', 'tokenizer.json', 'voices/af_heart.bin', 'voices/am_adam.bin']);
  });
  test('** crosses folders and an empty list selects everything', () => {
    expect(selectFiles(repoFiles, ['**/*.onnx']).map((f) => f.path)).toEqual([
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
    ]);
    expect(selectFiles(repoFiles, [])).toHaveLength(repoFiles.length);
  });
  test('a pattern that matches nothing is an error naming it', () => {
    expect(() => selectFiles(repoFiles, ['config.json', 'onnx/model_q9.onnx'])).toThrow(/onnx\/model_q9\.onnx/);
  });
});

describe('manifest', () => {
  test('is sorted by path and survives a round trip', () => {
    const manifest = buildManifest(
      'o/r',
      commit,
      [
        { path: 'z.bin', size: 2, sha256: digest },
        { path: 'a.json', size: 1, sha256: digest },
      ],
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(manifest.files.map((f) => f.path)).toEqual(['a.json', 'z.bin']);
    expect(parseManifest(serializeManifest(manifest), 'm')).toEqual(manifest);
  });
  test('bad text is rejected with the place named', () => {
    expect(() => parseManifest('{', 's3://b/k')).toThrow(/s3:\/\/b\/k is not JSON/);
    expect(() => parseManifest(JSON.stringify({ repo: 'o/r', commit: 'main', files: [], time: 'x' }), 'm')).toThrow(
      /m is not a valid manifest/,
    );
  });
  test('sameFiles compares paths, sizes and digests, not order', () => {
    const a = [
      { path: 'a', size: 1, sha256: digest },
      { path: 'b', size: 2, sha256: digest },
    ];
    expect(sameFiles(a, [...a].reverse())).toBe(true);
    expect(sameFiles(a, [a[0]!])).toBe(false);
    expect(sameFiles(a, [a[0]!, { ...a[1]!, sha256: 'c'.repeat(64) }])).toBe(false);
  });
});
