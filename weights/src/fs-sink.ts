// Filesystem sink: download one file of a commit into a folder while verifying it. The bytes go to
// a temporary name and are renamed into place only once size and digest match, so a folder never
// holds a partial or wrong file under its real name. A file already present and matching is kept.
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { HubClient, RepoFile } from './hub.ts';
import type { ManifestFile } from './manifest.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import { asDownloadError, createDigestCheck, type Verified } from './verify.ts';

export interface FileResult extends ManifestFile {
  /** False when a matching file was already there. */
  copied: boolean;
}

export interface WriteFileOptions {
  signal?: AbortSignal;
  /** Bytes of this file received so far (restarts at 0 when a download is retried). */
  onBytes?: (fileBytes: number) => void;
  retry?: RetryOptions;
}

/**
 * A temporary name beside `target`, unique to this call: writers that run at once (two syncs into
 * one folder, in one process or two) never share one, whatever the clock or pid.
 */
export function partialPath(target: string): string {
  return `${target}.partial-${randomUUID()}`;
}

/** Verifies a file on disk against its listing; resolves to its digest, or null when absent or different. */
export async function verifyLocalFile(path: string, file: RepoFile): Promise<Verified | null> {
  const info = await stat(path).catch(() => null);
  if (info === null || !info.isFile() || info.size !== file.size) return null;
  const check = createDigestCheck(file);
  try {
    await pipeline(createReadStream(path), check.stream, async function* (source) {
      for await (const _ of source); // Drain: only the digest matters.
    });
    return await check.result;
  } catch {
    return null;
  }
}

/** Downloads `file` of `repo@commit` into `dir` unless a verified copy is there already. */
export async function writeFileVerified(
  hub: HubClient,
  repo: string,
  commit: string,
  file: RepoFile,
  dir: string,
  options: WriteFileOptions = {},
): Promise<FileResult> {
  const target = join(dir, file.path);
  const present = await verifyLocalFile(target, file);
  if (present !== null) {
    options.onBytes?.(file.size);
    return { path: file.path, ...present, copied: false };
  }
  await mkdir(dirname(target), { recursive: true });
  return withRetry(
    async () => {
      const partial = partialPath(target);
      const check = createDigestCheck(file, () => options.onBytes?.(check.received()));
      options.onBytes?.(0);
      try {
        const body = await hub.download(repo, commit, file.path, options.signal);
        await pipeline(body, check.stream, createWriteStream(partial), { signal: options.signal });
        const verified = await check.result;
        await rename(partial, target);
        return { path: file.path, ...verified, copied: true };
      } catch (error) {
        await rm(partial, { force: true });
        throw asDownloadError(error, file, check.received());
      }
      // The Hub client already retried 429/5xx on the request; here only a broken body is retried.
    },
    {
      attempts: 3,
      retryOn: (e) => (e as Error).name === 'DownloadInterrupted',
      ...options.retry,
      signal: options.signal,
    },
  );
}
