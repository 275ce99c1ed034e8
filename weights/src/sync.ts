// Sync one revision of a Hugging Face repository into a local folder (the local mode's weight
// download): resolve, select, download-verify-write each file, then write manifest.json last.
// A pinned commit whose manifest is already there is served without touching the network, and so
// are files copied in by hand (no manifest) once each matches its pinned size and SHA-256.
import { homedir } from 'node:os';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { integrityError } from './errors.ts';
import { readWeightsEnv } from './env.ts';
import { partialPath, verifyLocalFile, writeFileVerified } from './fs-sink.ts';
import { COMMIT, HubClient, assertRepoId, type HubOptions, type RepoFile } from './hub.ts';
import {
  MANIFEST_NAME,
  buildManifest,
  parseManifest,
  selectFiles,
  serializeManifest,
  type Manifest,
  type ManifestFile,
} from './manifest.ts';

export interface SyncProgress {
  /** The file being worked on (absent once everything is done). */
  file?: string;
  fileBytes: number;
  fileSize: number;
  /** Bytes verified across all selected files, present ones included. */
  bytes: number;
  totalBytes: number;
  filesDone: number;
  filesTotal: number;
}

export interface SyncToDirectoryOptions {
  repo: string;
  /** A commit (preferred: a pinned commit allows offline reuse) or a branch or tag. */
  revision: string;
  /** Glob patterns of the files to take; empty or absent takes every file. */
  include?: readonly string[];
  /** The model folder itself; files keep the repository's relative paths inside it. */
  dir: string;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
  /** A client, or options for one (endpoint, token). Default: from HF_ENDPOINT and HF_TOKEN. */
  hub?: HubClient | HubOptions;
  /** Known sizes and SHA-256 digests by path, checked against what is downloaded. */
  expected?: Readonly<Record<string, { size: number; sha256: string }>>;
}

/** `<XDG_CACHE_HOME or ~/.cache>/kokoro-speech/models/<repo>/<revision>`. */
export function defaultModelDir(repo: string, revision: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(
    readWeightsEnv(env).XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'kokoro-speech',
    'models',
    repo,
    revision,
  );
}

/** Reads `dir/manifest.json`; null when absent or unreadable as a manifest. */
export async function readLocalManifest(dir: string): Promise<Manifest | null> {
  const text = await readFile(join(dir, MANIFEST_NAME), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return parseManifest(text, join(dir, MANIFEST_NAME));
  } catch {
    return null;
  }
}

/** True when the folder's manifest is for this commit and has files for every include pattern. */
function manifestServes(
  manifest: Manifest | null,
  repo: string,
  commit: string,
  include: readonly string[],
): manifest is Manifest {
  if (manifest === null || manifest.repo !== repo || manifest.commit !== commit) return false;
  return include.every((pattern) => manifest.files.some((f) => posix.matchesGlob(f.path, pattern)));
}

export async function syncToDirectory(options: SyncToDirectoryOptions): Promise<Manifest> {
  const { repo, revision, dir, signal } = options;
  const include = options.include ?? [];
  assertRepoId(repo);
  const previous = await readLocalManifest(dir);
  // Offline fast path: trusts files the manifest lists once their sizes match (they were verified when written).
  if (include.length > 0 && COMMIT.test(revision) && manifestServes(previous, repo, revision, include)) {
    const listed = previous.files.filter((f) => include.some((p) => posix.matchesGlob(f.path, p)));
    if (await onDisk(dir, listed)) {
      checkExpected(listed, options.expected);
      return previous;
    }
  }

  // Copied in by hand: every wanted file is pinned, so a verified copy needs no listing from the Hub.
  const copies = COMMIT.test(revision) ? await checkLocalCopies(dir, include, options.expected) : null;
  if (copies !== null && copies.missing.length === 0 && copies.mismatched.length === 0) {
    const kept = previous?.repo === repo && previous.commit === revision ? previous.files : [];
    const others = kept.filter((f) => !copies.verified.some((v) => v.path === f.path));
    const manifest = buildManifest(repo, revision, [...copies.verified, ...(await filterOnDisk(dir, others))]);
    await writeManifest(dir, manifest);
    return manifest;
  }

  const hub = options.hub instanceof HubClient ? options.hub : new HubClient(options.hub);
  const resolved = await hub.resolveRevision(repo, revision, signal);
  const files = selectFiles(resolved.files, include);
  checkListed(files, options.expected);

  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);
  let doneBytes = 0;
  const results: ManifestFile[] = [];
  for (const [index, file] of files.entries()) {
    const report = (fileBytes: number) =>
      options.onProgress?.({
        file: file.path,
        fileBytes,
        fileSize: file.size,
        bytes: doneBytes + fileBytes,
        totalBytes,
        filesDone: index,
        filesTotal: files.length,
      });
    const result = await writeFileVerified(hub, repo, resolved.commit, file, dir, { signal, onBytes: report });
    results.push({ path: result.path, size: result.size, sha256: result.sha256 });
    doneBytes += file.size;
  }
  checkExpected(results, options.expected);
  options.onProgress?.({
    fileBytes: 0,
    fileSize: 0,
    bytes: totalBytes,
    totalBytes,
    filesDone: files.length,
    filesTotal: files.length,
  });

  // Keep earlier entries of the same commit (another dtype, say) whose files are still in place.
  const kept =
    previous?.repo === repo && previous.commit === resolved.commit
      ? previous.files.filter((f) => !results.some((r) => r.path === f.path))
      : [];
  const manifest = buildManifest(repo, resolved.commit, [...results, ...(await filterOnDisk(dir, kept))]);
  await writeManifest(dir, manifest);
  return manifest;
}

async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const tmp = partialPath(join(dir, MANIFEST_NAME));
  await writeFile(tmp, serializeManifest(manifest));
  await rename(tmp, join(dir, MANIFEST_NAME));
}

/** What a folder holds of the files a sync wants, each checked against its pinned size and SHA-256. */
export interface LocalCopies {
  verified: ManifestFile[];
  /** Wanted files not in the folder. */
  missing: string[];
  /** Wanted files in the folder whose size or digest is not the pinned one. */
  mismatched: string[];
}

/**
 * Checks the files of `dir` that `include` names against `expected`; null when some pattern is a
 * glob or has no pinned digest (then only the Hub's listing can say which files are wanted).
 */
export async function checkLocalCopies(
  dir: string,
  include: readonly string[],
  expected: SyncToDirectoryOptions['expected'],
): Promise<LocalCopies | null> {
  if (include.length === 0 || !expected || include.some((p) => /[*?[\]{}]/.test(p) || !expected[p])) return null;
  const copies: LocalCopies = { verified: [], missing: [], mismatched: [] };
  for (const path of include) {
    const want = expected[path]!;
    const present = await stat(join(dir, path)).catch(() => null);
    if (present === null) {
      copies.missing.push(path);
      continue;
    }
    const file: RepoFile = { path, size: want.size, sha256: want.sha256, blobId: '' };
    const verified = await verifyLocalFile(join(dir, path), file);
    if (verified === null) copies.mismatched.push(path);
    else copies.verified.push({ path, ...verified });
  }
  return copies;
}

async function filterOnDisk(dir: string, files: readonly ManifestFile[]): Promise<ManifestFile[]> {
  const sizes = await Promise.all(
    files.map((f) =>
      stat(join(dir, f.path)).then(
        (s) => s.size,
        () => -1,
      ),
    ),
  );
  return files.filter((f, i) => sizes[i] === f.size);
}

async function onDisk(dir: string, files: readonly ManifestFile[]): Promise<boolean> {
  return (await filterOnDisk(dir, files)).length === files.length;
}

function checkListed(files: readonly RepoFile[], expected: SyncToDirectoryOptions['expected']): void {
  for (const file of files) {
    const want = expected?.[file.path];
    if (want && (want.size !== file.size || (file.sha256 !== null && file.sha256 !== want.sha256))) {
      throw integrityError(
        `${file.path} is listed as ${file.size} bytes, SHA-256 ${file.sha256 ?? '(not LFS)'}; pinned: ${want.size} bytes, ${want.sha256}`,
      );
    }
  }
}

function checkExpected(files: readonly ManifestFile[], expected: SyncToDirectoryOptions['expected']): void {
  for (const file of files) {
    const want = expected?.[file.path];
    if (want && (want.size !== file.size || want.sha256 !== file.sha256)) {
      throw integrityError(
        `${file.path} is ${file.size} bytes, SHA-256 ${file.sha256}; pinned: ${want.size} bytes, ${want.sha256}`,
      );
    }
  }
}
