// Benchmark: throughput of the download-verify-write path on loopback, for the folder sink (local
// mode) and the S3 sink (s3rver), with a file the size of Kokoro's q8 export. Prints figures only.
// Run: npm exec -- node weights/bench/sync-bench.ts [MiB]   (from the repository root)
import { S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HubClient, copyFileToS3, modelKeyPrefix, syncToDirectory } from '../src/index.ts';
import { startHubStandIn, startS3StandIn } from '../src/testing/index.ts';

const mib = Number(process.argv[2] ?? 88);
const data = Buffer.alloc(mib * 1024 * 1024);
for (let i = 0; i + 4 <= data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);

const [hub, s3stand] = await Promise.all([startHubStandIn(), startS3StandIn()]);
const commit = hub.addCommit('bench/model', { 'config.json': '{}', 'onnx/model_quantized.onnx': data });
const client = new HubClient({ endpoint: hub.url });
const rate = (ms: number) => `${(mib / (ms / 1000)).toFixed(0)} MiB/s`;

const dir = await mkdtemp(join(tmpdir(), 'weights-bench-'));
let t = performance.now();
await syncToDirectory({ repo: 'bench/model', revision: commit, include: ['onnx/*.onnx'], dir, hub: client });
const fsMs = performance.now() - t;
t = performance.now();
await syncToDirectory({ repo: 'bench/model', revision: 'main', include: ['onnx/*.onnx'], dir, hub: client });
const fsVerifyMs = performance.now() - t;
t = performance.now();
await syncToDirectory({ repo: 'bench/model', revision: commit, include: ['onnx/*.onnx'], dir, hub: client });
const fsOfflineMs = performance.now() - t;
await rm(dir, { recursive: true, force: true });

const s3 = new S3Client({
  endpoint: s3stand.endpoint,
  forcePathStyle: true,
  region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});
const file = (await client.resolveRevision('bench/model', commit)).files.find((f) => f.path.endsWith('.onnx'))!;
const keyPrefix = modelKeyPrefix('models', 'bench/model', commit);
t = performance.now();
await copyFileToS3({ hub: client, s3, bucket: s3stand.bucket, keyPrefix, repo: 'bench/model', commit, file });
const s3Ms = performance.now() - t;
t = performance.now();
await copyFileToS3({ hub: client, s3, bucket: s3stand.bucket, keyPrefix, repo: 'bench/model', commit, file });
const s3SkipMs = performance.now() - t;
s3.destroy();
await Promise.all([hub.close(), s3stand.close()]);

console.log(`file: ${mib} MiB, loopback, ${process.version}`);
console.log(`folder sink, download+verify+write:   ${fsMs.toFixed(0)} ms (${rate(fsMs)})`);
console.log(`folder sink, branch re-check (rehash): ${fsVerifyMs.toFixed(0)} ms (${rate(fsVerifyMs)})`);
console.log(`folder sink, pinned commit, offline:   ${fsOfflineMs.toFixed(1)} ms`);
console.log(`S3 sink (s3rver), 16 MiB parts:        ${s3Ms.toFixed(0)} ms (${rate(s3Ms)})`);
console.log(`S3 sink, already present (HEAD only):  ${s3SkipMs.toFixed(1)} ms`);
