// The pinned Kokoro-82M ONNX export that local mode downloads and the model-cache stack syncs.
// Commit and digests as published on the Hub for onnx-community/Kokoro-82M-v1.0-ONNX (field notes §2).
export const KOKORO_ONNX_REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX';
export const KOKORO_ONNX_REVISION = '1939ad2a8e416c0acfeecc08a694d14ef25f2231';

import { matchesInclude } from './manifest.ts';

export type KokoroDtype = 'fp32' | 'fp16' | 'q8' | 'q4' | 'q4f16';

/** The ONNX file kokoro-js loads for each dtype. */
export const KOKORO_ONNX_FILES: Readonly<Record<KokoroDtype, string>> = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
  q4: 'onnx/model_q4.onnx',
  q4f16: 'onnx/model_q4f16.onnx',
};

const SHARED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

/** Include patterns for one dtype: config, tokenizer files and that ONNX file (voices ship with kokoro-js). */
export function kokoroIncludes(dtype: KokoroDtype, options: { voices?: boolean } = {}): string[] {
  const file = KOKORO_ONNX_FILES[dtype];
  if (file === undefined)
    throw new Error(
      `unknown Kokoro dtype ${JSON.stringify(dtype)}; expected one of ${Object.keys(KOKORO_ONNX_FILES).join(', ')}`,
    );
  return [...SHARED_FILES, file, ...(options.voices ? ['voices/*.bin'] : [])];
}

/** The dtypes whose ONNX file an include list takes (the model-cache stack's, say). */
export function kokoroDtypesIn(include: readonly string[]): KokoroDtype[] {
  return (Object.keys(KOKORO_ONNX_FILES) as KokoroDtype[]).filter((dtype) =>
    matchesInclude(KOKORO_ONNX_FILES[dtype], include),
  );
}

/** What the model-cache stack syncs by default: the shared files, fp32 and q8 exports, and every voice. */
export const KOKORO_SYNC_INCLUDES: readonly string[] = [
  ...SHARED_FILES,
  KOKORO_ONNX_FILES.fp32,
  KOKORO_ONNX_FILES.q8,
  'voices/*.bin',
];

/** Sizes and SHA-256 digests of the files local mode uses, at KOKORO_ONNX_REVISION; a sync checks them. */
export const KOKORO_ONNX_PINNED: Readonly<Record<string, { size: number; sha256: string }>> = {
  'config.json': { size: 44, sha256: 'df34b4f930b23447cd4dc410fabfb42eb3f24e803e6c3f97d618fb359380a36f' },
  'tokenizer.json': { size: 3497, sha256: '77a02c8e164413299b4b4c403b14f8e0e1c1b727db4d46a09d6327b861060a34' },
  'tokenizer_config.json': { size: 113, sha256: 'be1cb066d6ef6b074b3f15e6a6dd21ac88ff3cdaedf325f0aaed686c70f75d20' },
  'onnx/model_quantized.onnx': {
    size: 92_361_116,
    sha256: 'fbae9257e1e05ffc727e951ef9b9c98418e6d79f1c9b6b13bd59f5c9028a1478',
  },
  'onnx/model.onnx': { size: 325_532_232, sha256: '8fbea51ea711f2af382e88c833d9e288c6dc82ce5e98421ea61c058ce21a34cb' },
};
