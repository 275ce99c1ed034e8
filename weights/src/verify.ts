// Streaming verification: a pass-through that hashes and counts the bytes of one file and fails
// at the end of the stream when they differ from the listing, before any sink commits them.
import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import { digestMismatch, downloadInterrupted } from './errors.ts';
import type { RepoFile } from './hub.ts';

export interface Verified {
  size: number;
  sha256: string;
}

export interface DigestCheck {
  stream: Transform;
  /** Resolves once the last byte has passed and matched; rejects like the stream does. */
  result: Promise<Verified>;
  /** Bytes seen so far. */
  received(): number;
  /** The error the stream failed with, if it has. */
  failure(): unknown;
}

/** Git's object id of a blob: sha1 over "blob <size>\0" and the content. Small (non-LFS) files are listed by it. */
export function gitBlobHash(size: number): Hash {
  return createHash('sha1').update(`blob ${size}\0`);
}

/**
 * Checks size and digest of `file` as it streams through. LFS files are checked against their
 * SHA-256; small files against their git blob id (their SHA-256 is computed for the manifest).
 */
export function createDigestCheck(file: RepoFile, onBytes?: (chunkBytes: number) => void): DigestCheck {
  const sha256 = createHash('sha256');
  const blob = file.sha256 === null ? gitBlobHash(file.size) : null;
  let received = 0;
  let settle!: { resolve: (v: Verified) => void; reject: (e: unknown) => void };
  const result = new Promise<Verified>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => {}); // Callers may only watch the stream; never leave this unhandled.

  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > file.size) {
        callback(digestMismatch(file.path, `received more than the listed ${file.size} bytes`));
        return;
      }
      sha256.update(chunk);
      blob?.update(chunk);
      onBytes?.(chunk.length);
      callback(null, chunk);
    },
    flush(callback) {
      if (received < file.size) {
        callback(downloadInterrupted(file.path, received, file.size));
        return;
      }
      const digest = sha256.digest('hex');
      if (file.sha256 !== null && digest !== file.sha256) {
        callback(digestMismatch(file.path, `SHA-256 ${digest} differs from the listed ${file.sha256}`));
        return;
      }
      const blobId = blob?.digest('hex');
      if (blobId !== undefined && blobId !== file.blobId) {
        callback(digestMismatch(file.path, `git blob id ${blobId} differs from the listed ${file.blobId}`));
        return;
      }
      settle.resolve({ size: received, sha256: digest });
      callback();
    },
  });
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
    settle.reject(error);
  });
  return { stream, result, received: () => received, failure: () => failure };
}

/** Names a failure in the middle of a download: our own errors pass; a broken connection is an interruption. */
export function asDownloadError(error: unknown, file: RepoFile, received: number): unknown {
  if (
    error instanceof Error &&
    (error.name === 'AbortError' ||
      error.name.startsWith('Hub') ||
      error.name === 'DigestMismatch' ||
      error.name === 'DownloadInterrupted')
  ) {
    return error;
  }
  return downloadInterrupted(file.path, received, file.size, error);
}
