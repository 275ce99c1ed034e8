// S3 sink: stream one file of a commit from the Hub into S3 (multipart for large files) while
// hashing it. The check fails the stream before the last part, so lib-storage aborts the upload and
// a wrong file is never completed. S3 keeps no SHA-256 of a multipart object, so the digest goes in
// object metadata (x-amz-meta-sha256) and a later sync skips an object whose size and digest match.
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { pipeline, type Readable } from 'node:stream';
import type { FileResult } from './fs-sink.ts';
import { assertRelativePath, type HubClient, type RepoFile } from './hub.ts';
import { MANIFEST_NAME, parseManifest, serializeManifest, type Manifest } from './manifest.ts';
import { withRetry } from './retry.ts';
import { readWeightsEnv } from './env.ts';
import { asDownloadError, createDigestCheck } from './verify.ts';

export const DEFAULT_PART_SIZE = 16 * 1024 * 1024;

/**
 * An S3 client from the SDK's standard settings (region, credentials, AWS_ENDPOINT_URL_S3).
 * A custom endpoint (a local S3 stand-in) gets path-style addressing, as such servers expect.
 */
export function s3ClientFromEnv(env: NodeJS.ProcessEnv = process.env): S3Client {
  const e = readWeightsEnv(env);
  const custom = Boolean(e.AWS_ENDPOINT_URL_S3 ?? e.AWS_ENDPOINT_URL) || e.AWS_S3_FORCE_PATH_STYLE === 'true';
  return new S3Client({ forcePathStyle: custom });
}

export interface CopyToS3Options {
  hub: HubClient;
  s3: S3Client;
  bucket: string;
  /** The model folder's key prefix, ending in '/' (modelKeyPrefix). */
  keyPrefix: string;
  repo: string;
  commit: string;
  file: RepoFile;
  /** Multipart part size in bytes (at least 5 MiB). Default 16 MiB. */
  partSize?: number;
  signal?: AbortSignal;
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey');

/** Copies one file unless an object with the same size and digest is already there. */
export async function copyFileToS3(options: CopyToS3Options): Promise<FileResult> {
  const { hub, s3, bucket, keyPrefix, repo, commit, file, signal } = options;
  assertRelativePath(file.path);
  const key = `${keyPrefix}${file.path}`;
  const head = await s3
    .send(new HeadObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal })
    .catch((error: unknown) => {
      if (isNotFound(error)) return null;
      throw error;
    });
  const meta = head?.Metadata ?? {};
  const same =
    head?.ContentLength === file.size &&
    meta['sha256'] !== undefined &&
    (file.sha256 === null ? meta['git-blob-id'] === file.blobId : meta['sha256'] === file.sha256);
  if (same) return { path: file.path, size: file.size, sha256: meta['sha256']!, copied: false };

  return withRetry(
    async () => {
      const check = createDigestCheck(file);
      try {
        const download = await hub.download(repo, commit, file.path, signal);
        const verified: Readable = pipeline(download, check.stream, () => {});
        // Small (non-LFS) files have no listed SHA-256: buffer and verify them before the single PUT.
        const body = file.sha256 === null ? Buffer.concat(await verified.toArray()) : verified;
        const sha256 = file.sha256 ?? (await check.result).sha256;
        const upload = new Upload({
          client: s3,
          partSize: options.partSize ?? DEFAULT_PART_SIZE,
          queueSize: 4,
          params: {
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentLength: file.size,
            ContentType: file.path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
            Metadata: { sha256, 'git-blob-id': file.blobId, 'source-repo': repo, 'source-commit': commit },
          },
        });
        signal?.addEventListener('abort', () => void upload.abort(), { once: true });
        await upload.done();
        return { path: file.path, ...(await check.result), copied: true };
      } catch (error) {
        // A failed abort (or any later S3 error) must not hide why the stream failed.
        throw asDownloadError(check.failure() ?? error, file, check.received());
      }
    },
    { attempts: 3, retryOn: (e) => (e as Error).name === 'DownloadInterrupted', signal },
  );
}

/** Reads `<keyPrefix>manifest.json`; null when there is none. */
export async function readManifestFromS3(s3: S3Client, bucket: string, keyPrefix: string): Promise<Manifest | null> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: `${keyPrefix}${MANIFEST_NAME}` }));
    return parseManifest(await object.Body!.transformToString(), `s3://${bucket}/${keyPrefix}${MANIFEST_NAME}`);
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Writes `<keyPrefix>manifest.json`; returns its key. */
export async function writeManifestToS3(
  s3: S3Client,
  bucket: string,
  keyPrefix: string,
  manifest: Manifest,
): Promise<string> {
  const key = `${keyPrefix}${MANIFEST_NAME}`;
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: serializeManifest(manifest),
      ContentType: 'application/json',
    }),
  );
  return key;
}
