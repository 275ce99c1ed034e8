// The pinned Kokoro-82M ONNX export that local mode downloads and the model-cache stack syncs.
// Commit and digests as the Hub lists them for onnx-community/Kokoro-82M-v1.0-ONNX
// (docs/design/kokoro-model.md#pinned-exports).
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

// ---- the timestamped export (an option: word timings from the model's own durations) ----

/**
 * onnx-community's timestamped variant of the same v1.0 export: outputs `waveform` and a
 * `durations` float32 [1, tokens] (predictions before Round and Clip(min=1)), which the container
 * turns into word times. Same config and tokenizer files as the standard export.
 *
 * Where these pins come from (docs/design/kokoro-model.md#pinned-exports): the commit, sizes and
 * SHA-256 digests below were not read from the Hub's listing but are the values that several
 * independent public repositories pin for this repository and commit (and the config and tokenizer
 * digests equal the standard export's). A sync checks every file against them and refuses a
 * mismatch (DigestMismatch / IntegrityError): wrong pins fail loudly, never silently.
 */
export const KOKORO_TIMESTAMPED_REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX-timestamped';
export const KOKORO_TIMESTAMPED_REVISION = 'dd4401a9add81ac692d20e240d22ec9dda82cc29';
export const KOKORO_TIMESTAMPED_PINNED: Readonly<Record<string, { size: number; sha256: string }>> = {
  'config.json': KOKORO_ONNX_PINNED['config.json']!,
  'tokenizer.json': KOKORO_ONNX_PINNED['tokenizer.json']!,
  'tokenizer_config.json': KOKORO_ONNX_PINNED['tokenizer_config.json']!,
  'onnx/model_quantized.onnx': {
    size: 92_361_055,
    sha256: 'c0c02b3299fd97c34ea92a98e6d41eaa1a739c8f77bf685aac34bd7b34c1132c',
  },
  'onnx/model.onnx': { size: 325_532_171, sha256: '651ea8291843a92276a4a003581a215cb07d15e47dde6fcfb1b768f9a1682054' },
};

export type KokoroExportName = 'standard' | 'timestamped';

export interface KokoroExport {
  repo: string;
  revision: string;
  pinned: Readonly<Record<string, { size: number; sha256: string }>>;
  /** Whether the export has a durations output (word timings from the model, not estimated). */
  durations: boolean;
}

export const KOKORO_EXPORTS: Readonly<Record<KokoroExportName, KokoroExport>> = {
  standard: { repo: KOKORO_ONNX_REPO, revision: KOKORO_ONNX_REVISION, pinned: KOKORO_ONNX_PINNED, durations: false },
  timestamped: {
    repo: KOKORO_TIMESTAMPED_REPO,
    revision: KOKORO_TIMESTAMPED_REVISION,
    pinned: KOKORO_TIMESTAMPED_PINNED,
    durations: true,
  },
};

/**
 * The include patterns of one export and dtype, refusing any file without a pinned size and
 * digest: an export is only ever fetched verified.
 */
export function exportIncludes(
  name: KokoroExportName,
  dtype: KokoroDtype,
): { export: KokoroExport; include: string[] } {
  const chosen = KOKORO_EXPORTS[name];
  if (chosen === undefined)
    throw new Error(
      `unknown Kokoro export ${JSON.stringify(name)}; expected one of ${Object.keys(KOKORO_EXPORTS).join(', ')}`,
    );
  const include = kokoroIncludes(dtype);
  const unpinned = include.filter((path) => chosen.pinned[path] === undefined);
  if (unpinned.length > 0) {
    throw new Error(
      `the ${name} export has no pinned size and digest for ${unpinned.join(', ')} (dtype ${dtype}); it would download unverified, so it is refused`,
    );
  }
  return { export: chosen, include };
}
