import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { HeadObjectCommand, ListObjectsCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { HubClient, type RepoFile } from './hub.ts';
import { buildManifest } from './manifest.ts';
import { modelKeyPrefix } from './layout.ts';
import { copyFileToS3, readManifestFromS3, s3ClientFromEnv, writeManifestToS3 } from './s3-sink.ts';
import { startHubStandIn, startS3StandIn, type HubStandIn, type S3StandIn } from './testing/index.ts';

const REPO = 'acme/tiny-tts';
const MiB = 1024 * 1024;
const large = Buffer.alloc(6 * MiB + 12_345);
for (let i = 0; i < large.length; i += 4096) large.writeUInt32LE(i, i);
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

let hub: HubStandIn;
let s3stand: S3StandIn;
let s3: S3Client;
let client: HubClient;
let commit: string;
let listing: Map<string, RepoFile>;

beforeAll(async () => {
  [hub, s3stand] = await Promise.all([startHubStandIn(), startS3StandIn()]);
  s3 = new S3Client({
    endpoint: s3stand.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  client = new HubClient({ endpoint: hub.url, retry: { baseDelayMs: 1 } });
  commit = hub.addCommit(REPO, {
    'config.json': '{"a":1}',
    'onnx/model.onnx': large,
    'voices/af.bin': Buffer.alloc(2048, 5),
  });
  listing = new Map((await client.resolveRevision(REPO, commit)).files.map((f) => [f.path, f]));
});
afterAll(async () => {
  s3.destroy();
  await Promise.all([hub.close(), s3stand.close()]);
});

const copy = (path: string, keyPrefix: string) =>
  copyFileToS3({
    hub: client,
    s3,
    bucket: s3stand.bucket,
    keyPrefix,
    repo: REPO,
    commit,
    file: listing.get(path)!,
    partSize: 5 * MiB,
  });
/** Names of the S3 commands `fn` sends (read on the client's side of the wire). */
async function recordCommands<T>(fn: () => Promise<T>): Promise<{ sent: string[]; result: T }> {
  const sent: string[] = [];
  s3.middlewareStack.add((next, context) => (args) => (sent.push(String(context.commandName)), next(args)), {
    step: 'initialize',
    name: 'record',
  });
  try {
    return { sent, result: await fn() };
  } finally {
    s3.middlewareStack.remove('record');
  }
}
const keys = async (prefix: string) =>
  ((await s3.send(new ListObjectsCommand({ Bucket: s3stand.bucket, Prefix: prefix }))).Contents ?? []).map(
    (o) => o.Key,
  );

describe('copyFileToS3 (S3 sink)', () => {
  test('streams a file larger than one part as a multipart upload with its digest in metadata', async () => {
    const prefix = 'mp/';
    const { sent, result } = await recordCommands(() => copy('onnx/model.onnx', prefix));
    expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(2);
    expect(sent).toContain('CompleteMultipartUploadCommand');
    expect(result).toEqual({ path: 'onnx/model.onnx', size: large.length, sha256: sha256(large), copied: true });
    const head = await s3.send(new HeadObjectCommand({ Bucket: s3stand.bucket, Key: `${prefix}onnx/model.onnx` }));
    expect(head.ContentLength).toBe(large.length);
    expect(head.Metadata).toMatchObject({ sha256: sha256(large), 'source-commit': commit });
  });

  test('a small file without a listed SHA-256 is verified by blob id and stored with its computed digest', async () => {
    const result = await copy('config.json', 'small/');
    expect(result).toMatchObject({ sha256: sha256('{"a":1}'), copied: true });
  });

  test('an object already present with the same size and digest is skipped without downloading', async () => {
    await copy('voices/af.bin', 'skip/');
    const downloads = hub.downloads('voices/af.bin');
    expect(await copy('voices/af.bin', 'skip/')).toMatchObject({
      copied: false,
      sha256: sha256(Buffer.alloc(2048, 5)),
    });
    expect(await copy('config.json', 'skip/')).toMatchObject({ copied: true });
    expect(await copy('config.json', 'skip/')).toMatchObject({ copied: false });
    expect(hub.downloads('voices/af.bin')).toBe(downloads);
  });

  test('a corrupted large file aborts the multipart upload and leaves no object', async () => {
    hub.inject('onnx/model.onnx', { kind: 'corrupt' });
    const { sent } = await recordCommands(() =>
      expect(copy('onnx/model.onnx', 'bad/')).rejects.toMatchObject({ name: 'DigestMismatch' }),
    );
    expect(await keys('bad/')).toEqual([]);
    // s3rver answers AbortMultipartUpload with 405, so the abort is checked on the client's side.
    expect(sent).toContain('AbortMultipartUploadCommand');
    expect(sent).not.toContain('CompleteMultipartUploadCommand');
  });

  test('a truncated body is retried; one that keeps breaking fails with DownloadInterrupted', async () => {
    hub.inject('voices/af.bin', { kind: 'truncate', bytes: 100 });
    await expect(copy('voices/af.bin', 'trunc1/')).resolves.toMatchObject({ copied: true });
    hub.inject('voices/af.bin', { kind: 'truncate', bytes: 100 }, 3);
    await expect(copy('voices/af.bin', 'trunc2/')).rejects.toMatchObject({ name: 'DownloadInterrupted' });
    expect(await keys('trunc2/')).toEqual([]);
  });

  test('manifests round-trip; a missing one reads as null', async () => {
    const prefix = modelKeyPrefix('models', REPO, commit);
    expect(await readManifestFromS3(s3, s3stand.bucket, prefix)).toBeNull();
    const manifest = buildManifest(REPO, commit, [{ path: 'config.json', size: 7, sha256: sha256('{"a":1}') }]);
    expect(await writeManifestToS3(s3, s3stand.bucket, prefix, manifest)).toBe(
      `models/${REPO}/${commit}/manifest.json`,
    );
    expect(await readManifestFromS3(s3, s3stand.bucket, prefix)).toEqual(manifest);
  });
});

describe('modelKeyPrefix', () => {
  test('lays out <prefix>/<repo>/<commit>/', () => {
    expect(modelKeyPrefix('/models/', 'o/r', 'a'.repeat(40))).toBe(`models/o/r/${'a'.repeat(40)}/`);
    expect(modelKeyPrefix('', 'o/r', 'a'.repeat(40))).toBe(`o/r/${'a'.repeat(40)}/`);
  });
  test('refuses branches and dot segments', () => {
    expect(() => modelKeyPrefix('m', 'o/r', 'main')).toThrow(/40 hex/);
    expect(() => modelKeyPrefix('m/../x', 'o/r', 'a'.repeat(40))).toThrow(/\.\./);
  });
});

describe('s3ClientFromEnv', () => {
  test('uses path-style addressing for a custom endpoint only', async () => {
    expect(await s3ClientFromEnv({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:1' }).config.forcePathStyle).toBe(true);
    expect(await s3ClientFromEnv({}).config.forcePathStyle).toBe(false);
  });
});
