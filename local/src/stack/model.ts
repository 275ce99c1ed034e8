// Which model the local Kokoro server loads: KOKORO_MODEL_DIR, else the pinned revision in the user
// cache (downloaded with SHA-256 verification when missing, or files copied there by hand once they
// match the pinned digests), else, with --offline, the stand-in.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import {
  checkLocalCopies,
  defaultModelDir,
  exportIncludes,
  KOKORO_ONNX_REPO,
  KOKORO_ONNX_REVISION,
  syncToDirectory,
  type KokoroExportName,
  type RetryOptions,
  type SyncProgress,
} from '@kokoro-speech/weights';
import { checkModelFolder, describeModelFolder, type ModelDirSource } from './model-dir.ts';
import { StartupError } from './startup-error.ts';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

export type LocalDtype = 'q8' | 'fp32';

export interface ModelChoice {
  kind: 'kokoro' | 'stand-in';
  dir: string;
  dtype: LocalDtype;
  /** One line for the console and the page. */
  description: string;
  /** Removes what was created for this run (the stand-in's temp folder). */
  dispose(): Promise<void>;
}

export interface ResolveModelOptions {
  offline: boolean;
  dtype: LocalDtype;
  /** Which pinned export to download (default standard; timestamped has a durations output). */
  export?: KokoroExportName;
  /** KOKORO_MODEL_DIR or --model-dir. */
  modelDir?: string;
  /** Which of the two the user gave (named in messages; default KOKORO_MODEL_DIR). */
  modelDirSource?: ModelDirSource;
  env?: NodeJS.ProcessEnv;
  onProgress?: (p: SyncProgress) => void;
  signal?: AbortSignal;
  /** Download retries (default: the weights package's, 5 attempts with backoff). */
  retry?: RetryOptions;
}

/** Weights could not be had; the message names every way out. */
export class WeightsUnavailableError extends KokoroError<'weights_unavailable'> {
  /**
   * `repo` and `revision`: the pinned export asked for; `files`: what the cache folder needs;
   * `mismatched`: files found there that are not the pinned ones (copied from another revision, or
   * damaged), which are then named too.
   */
  constructor(
    cause: unknown,
    cacheDir: string,
    endpoint: string,
    repo = KOKORO_ONNX_REPO,
    revision = KOKORO_ONNX_REVISION,
    files: readonly string[] = [],
    mismatched: readonly string[] = [],
  ) {
    const why = errorMessage(cause);
    const names = files.length > 0 ? files.join(', ') : 'the files';
    super(
      'weights_unavailable',
      [
        `Could not get the Kokoro-82M weights (${repo} @ ${revision.slice(0, 12)}) from ${endpoint}: ${why}`,
        ...(mismatched.length > 0
          ? [
              `In ${cacheDir}, ${mismatched.join(', ')} ${mismatched.length > 1 ? 'are not the pinned files' : 'is not the pinned file'} (another revision, or damaged).`,
            ]
          : []),
        'Options:',
        '  npm start -- --offline                 run with the stand-in model: a tone instead of a voice, same streaming timing',
        '  KOKORO_MODEL_DIR=/path npm start       use a folder that holds the Kokoro ONNX files (config.json, tokenizer*.json, onnx/)',
        '  HF_ENDPOINT=https://mirror npm start   download through a Hugging Face mirror (HF_TOKEN if it needs one)',
        `  or copy ${names} of revision ${revision.slice(0, 12)} into ${cacheDir}`,
        '    (checked against the pinned SHA-256 digests, then used without the network)',
      ].join('\n'),
      { cause },
    );
  }
}

export async function resolveModel(options: ResolveModelOptions): Promise<ModelChoice> {
  const env = options.env ?? process.env;
  if (options.offline) {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-stand-in-'));
    await writeFixtureModel(dir, { durations: true }); // with a durations output: exact word timings
    return {
      kind: 'stand-in',
      dir,
      dtype: 'fp32', // the stand-in writes onnx/model.onnx only
      description: 'stand-in model: a tone (--offline)',
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const noop = async (): Promise<void> => {};
  if (options.modelDir) {
    const report = await checkModelFolder(options.modelDir, options.dtype);
    const problem = describeModelFolder(
      report,
      options.modelDir,
      options.dtype,
      options.modelDirSource ?? 'KOKORO_MODEL_DIR',
      env,
    );
    if (problem !== null) throw new StartupError(problem);
    return {
      kind: 'kokoro',
      dir: options.modelDir,
      dtype: options.dtype,
      description: `Kokoro-82M ${options.dtype} (${options.modelDir})`,
      dispose: noop,
    };
  }
  const chosen = exportIncludes(options.export ?? 'standard', options.dtype);
  const dir = defaultModelDir(chosen.export.repo, chosen.export.revision, env);
  const endpoint = env['HF_ENDPOINT'] || 'https://huggingface.co';
  try {
    await syncToDirectory({
      repo: chosen.export.repo,
      revision: chosen.export.revision,
      include: chosen.include,
      dir,
      expected: chosen.export.pinned,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      hub: {
        endpoint,
        ...(env['HF_TOKEN'] ? { token: env['HF_TOKEN'] } : {}),
        ...(options.retry ? { retry: options.retry } : {}),
      },
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const copies = await checkLocalCopies(dir, chosen.include, chosen.export.pinned).catch(() => null);
    const { repo, revision } = chosen.export;
    throw new WeightsUnavailableError(err, dir, endpoint, repo, revision, chosen.include, copies?.mismatched ?? []);
  }
  const timed = chosen.export.durations ? ', timestamped export' : '';
  return {
    kind: 'kokoro',
    dir,
    dtype: options.dtype,
    description: `Kokoro-82M ${options.dtype}${timed}`,
    dispose: noop,
  };
}
