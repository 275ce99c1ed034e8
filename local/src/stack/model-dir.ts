// Checks a model folder given with --model-dir or KOKORO_MODEL_DIR before the Kokoro server loads
// it: every file kokoro-js reads for the dtype, all at once, each with what is wrong with it
// (missing, empty, a Git LFS pointer, not JSON, not a tokenizer, text instead of an ONNX model), so
// one message names everything to fix instead of one loader error (or a TypeError) at a time.
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { KOKORO_ONNX_PINNED, KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, kokoroIncludes } from '@kokoro-speech/weights';
import type { LocalDtype } from './model.ts';

/** Where the folder came from, as the user wrote it. */
export type ModelDirSource = '--model-dir' | 'KOKORO_MODEL_DIR';

/** The top-level entries transformers.js reads from tokenizer.json without checking that they exist. */
const TOKENIZER_ENTRIES = ['model', 'normalizer', 'pre_tokenizer', 'post_processor', 'decoder', 'added_tokens'];
const LFS_POINTER = 'version https://git-lfs.github.com/spec/';

export interface ModelFolderReport {
  /** The folder itself is unusable (then `files` is empty). */
  folder: 'missing' | 'not a folder' | null;
  /** Wanted files that are not there. */
  missing: string[];
  /** Files that are there but cannot be what kokoro-js needs, with why. */
  invalid: { path: string; why: string }[];
}

export async function checkModelFolder(dir: string, dtype: LocalDtype): Promise<ModelFolderReport> {
  const report: ModelFolderReport = { folder: null, missing: [], invalid: [] };
  const info = await stat(dir).catch(() => null);
  if (info === null) return { ...report, folder: 'missing' };
  if (!info.isDirectory()) return { ...report, folder: 'not a folder' };
  for (const path of kokoroIncludes(dtype)) {
    const why = await checkFile(join(dir, path), path);
    if (why === 'missing') report.missing.push(path);
    else if (why !== null) report.invalid.push({ path, why });
  }
  return report;
}

async function checkFile(file: string, path: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  if (info === null) return 'missing';
  if (!info.isFile()) return 'is not a file';
  if (info.size === 0) return 'is empty';
  const head = await readHead(file, 4096);
  if (head.toString('latin1').startsWith(LFS_POINTER))
    return 'is a Git LFS pointer, not the file (in a git clone of the Hub repository, run git lfs pull)';
  if (path.endsWith('.onnx')) {
    return looksLikeText(head)
      ? `is text, not an ONNX model (it starts ${JSON.stringify(head.toString('utf8').slice(0, 40))})`
      : null;
  }
  if (info.size > 64 * 1024 * 1024) return 'is far too large for this JSON file';
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    return `is not JSON (${(error as Error).message.split('\n')[0]})`;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'is not a JSON object';
  if (path === 'config.json' && typeof (json as { model_type?: unknown }).model_type !== 'string')
    return 'has no "model_type": not a model config';
  if (path === 'tokenizer.json') {
    const absent = TOKENIZER_ENTRIES.filter((key) => !(key in json));
    if (absent.length > 0) return `is not a tokenizer file (no ${absent.map((k) => `"${k}"`).join(', ')})`;
  }
  return null;
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** ONNX is protobuf: its first bytes are field tags and lengths, which are control characters. */
function looksLikeText(head: Buffer): boolean {
  return !head.some((b) => b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f);
}

/** A shell line that downloads the pinned files for `dtype` into `dir` (curl; HF_ENDPOINT honoured). */
export function fetchFilesCommand(dir: string, dtype: LocalDtype, env: NodeJS.ProcessEnv = process.env): string {
  const endpoint = (env['HF_ENDPOINT'] || 'https://huggingface.co').replace(/\/+$/, '');
  const base = `${endpoint}/${KOKORO_ONNX_REPO}/resolve/${KOKORO_ONNX_REVISION}`;
  const quoted = /^[\w./~-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", "'\\''")}'`;
  return `for f in ${kokoroIncludes(dtype).join(' ')}; do curl -fL --create-dirs -o ${quoted}/$f ${base}/$f || break; done`;
}

/** Megabytes of the pinned files for `dtype`, for the hint. */
function downloadSize(dtype: LocalDtype): string {
  const bytes = kokoroIncludes(dtype).reduce((n, path) => n + (KOKORO_ONNX_PINNED[path]?.size ?? 0), 0);
  return `${Math.round(bytes / 1e6)} MB`;
}

/** The lines that end every model-folder message: how to get the files, and the other ways out. */
export function getFilesHint(dir: string, dtype: LocalDtype, env: NodeJS.ProcessEnv = process.env): string {
  return [
    `Get the files (Kokoro-82M ${dtype}, ${downloadSize(dtype)}) in one line:`,
    `  ${fetchFilesCommand(dir, dtype, env)}`,
    'or leave the folder out: npm start downloads and checks them into its cache; or npm start -- --offline (a tone, no download).',
  ].join('\n');
}

/** The message for a folder that cannot be loaded, or null when it looks complete. */
export function describeModelFolder(
  report: ModelFolderReport,
  dir: string,
  dtype: LocalDtype,
  source: ModelDirSource,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const given = source === '--model-dir' ? `--model-dir ${dir}` : `KOKORO_MODEL_DIR=${dir}`;
  const hint = getFilesHint(dir, dtype, env);
  if (report.folder === 'missing') return `${given}: there is no such folder.\n${hint}`;
  if (report.folder === 'not a folder') return `${given}: that is a file, not a folder.\n${hint}`;
  if (report.missing.length === 0 && report.invalid.length === 0) return null;
  const lines = [`${given} cannot be loaded (Kokoro-82M ${dtype} needs ${kokoroIncludes(dtype).join(', ')}):`];
  if (report.missing.length > 0) lines.push(`  it has no ${report.missing.join(', ')} (needed for --dtype ${dtype})`);
  for (const { path, why } of report.invalid) lines.push(`  ${path} ${why}`);
  return `${lines.join('\n')}\n${hint}`;
}
