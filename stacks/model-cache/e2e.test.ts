// The sync state machine executed end to end on these machines: the real definition run by
// aws-local-stepfunctions, the real Lambda handlers as its task handlers, a Hugging Face stand-in
// (real digests, CDN redirects, injected faults) and s3rver as S3, all on loopback.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startHubStandIn, startS3StandIn, type HubStandIn, type S3StandIn } from '@kokoro-speech/weights/testing';
import * as sfn from '@aws-sdk/client-sfn';
import { createHash } from 'node:crypto';
import { localSyncMachine } from '../testing/local-sync-machine.ts';
import { startSfnStandIn } from '../testing/sfn-stand-in.ts';
import { executionName, runSyncExecution, type SyncRequest } from './sync-execution.ts';

const REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX';
const MiB = 1024 * 1024;
const INCLUDE = ['config.json', 'tokenizer.json', 'onnx/model.onnx', 'voices/*.bin'];
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

// A model larger than one 5 MiB multipart part, with non-repeating content.
const bigModel = Buffer.alloc(5 * MiB + 777_777);
for (let i = 0; i + 4 <= bigModel.length; i += 4) bigModel.writeUInt32LE((i * 2654435761) >>> 0, i);
const files = {
  'config.json': '{"model_type":"style_text_to_speech_2"}',
  'tokenizer.json': '{"version":"1.0"}',
  'README.md': 'not included',
  'onnx/model.onnx': bigModel,
  'onnx/model_quantized.onnx': Buffer.alloc(3000, 2),
  'voices/af_heart.bin': Buffer.alloc(4096, 1),
  'voices/am_adam.bin': Buffer.alloc(4096, 9),
};

let hub: HubStandIn;
let s3stand: S3StandIn;
let s3: S3Client;
let commit: string;
const saved = { ...process.env };

const logs: string[] = [];
beforeAll(async () => {
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logs.push(line));
  [hub, s3stand] = await Promise.all([startHubStandIn(), startS3StandIn('weights')]);
  commit = hub.addCommit(REPO, files);
  Object.assign(process.env, s3stand.env, {
    HF_ENDPOINT: hub.url,
    HF_TOKEN: '',
    HF_TOKEN_SECRET_ARN: '',
    DEFAULT_REPO: REPO,
    DEFAULT_REVISION: 'main',
    DEFAULT_INCLUDE: JSON.stringify(INCLUDE),
    BUCKET: s3stand.bucket,
    PREFIX: 'models/',
    PART_SIZE_MIB: '5',
  });
  s3 = new S3Client({ endpoint: s3stand.endpoint, forcePathStyle: true });
});
afterAll(async () => {
  process.env = saved;
  s3.destroy();
  await Promise.all([hub.close(), s3stand.close()]);
});

const { execute, retried, events: lastEvents } = localSyncMachine();

const keys = async (prefix: string) =>
  ((await s3.send(new ListObjectsV2Command({ Bucket: s3stand.bucket, Prefix: prefix }))).Contents ?? [])
    .map((o) => o.Key!)
    .sort();
const manifestAt = async (key: string) =>
  JSON.parse(
    await (await s3.send(new GetObjectCommand({ Bucket: s3stand.bucket, Key: key }))).Body!.transformToString(),
  );

describe('weight sync state machine, executed locally', () => {
  test('a fresh sync copies the included files under <prefix>/<repo>/<commit>/ and writes the manifest', async () => {
    const output = await execute({});
    const prefix = `models/${REPO}/${commit}/`;
    expect(output).toMatchObject({
      commit,
      modelDataUri: `s3://weights/${prefix}`,
      manifestKey: `${prefix}manifest.json`,
      filesCopied: 5,
      filesSkipped: 0,
    });
    expect(await keys(prefix)).toEqual(
      [
        'config.json',
        'manifest.json',
        'onnx/model.onnx',
        'tokenizer.json',
        'voices/af_heart.bin',
        'voices/am_adam.bin',
      ].map((k) => prefix + k),
    );
    const manifest = await manifestAt(`${prefix}manifest.json`);
    expect(manifest).toMatchObject({ repo: REPO, commit });
    expect(manifest.files.find((f: any) => f.path === 'onnx/model.onnx')).toEqual({
      path: 'onnx/model.onnx',
      size: bigModel.length,
      sha256: sha256(bigModel),
    });
    const body = await (
      await s3.send(new GetObjectCommand({ Bucket: s3stand.bucket, Key: `${prefix}onnx/model.onnx` }))
    ).Body!.transformToByteArray();
    expect(sha256(Buffer.from(body))).toBe(sha256(bigModel)); // larger than one 5 MiB part
  });

  test('a second run copies nothing and keeps the manifest', async () => {
    const prefix = `models/${REPO}/${commit}/`;
    const before = await manifestAt(`${prefix}manifest.json`);
    const downloads = hub.requests.filter((p) => p.includes('/resolve/')).length;
    const output = await execute({});
    expect(output).toMatchObject({ filesCopied: 0, filesSkipped: 5, bytesCopied: 0 });
    expect(logs.filter((l) => l.includes('"already present"')).length).toBeGreaterThanOrEqual(5);
    expect(hub.requests.filter((p) => p.includes('/resolve/')).length).toBe(downloads);
    expect(await manifestAt(`${prefix}manifest.json`)).toEqual(before);
  });

  test('a new revision syncs into a new prefix and leaves the old one', async () => {
    const next = hub.addCommit(
      REPO,
      { ...files, 'config.json': '{"model_type":"style_text_to_speech_2","v":2}' },
      'v2',
    );
    const output = await execute({ revision: 'v2' });
    expect(output).toMatchObject({
      commit: next,
      modelDataUri: `s3://weights/models/${REPO}/${next}/`,
      filesCopied: 5,
    });
    expect(await keys(`models/${REPO}/${commit}/`)).toHaveLength(6);
    expect(await keys(`models/${REPO}/${next}/`)).toHaveLength(6);
  });

  test('a corrupted file fails the execution with DigestMismatch and no manifest', async () => {
    const bad = hub.addCommit(REPO, { ...files, 'voices/af_heart.bin': Buffer.alloc(4096, 3) }, 'corrupt');
    hub.inject('voices/af_heart.bin', { kind: 'corrupt' });
    await expect(execute({ revision: 'corrupt', include: ['config.json', 'voices/*.bin'] })).rejects.toMatchObject({
      message: expect.stringContaining('SHA-256'),
      cause: expect.objectContaining({ name: 'DigestMismatch' }),
    });
    const prefix = `models/${REPO}/${bad}/`;
    expect(await keys(prefix)).not.toContain(`${prefix}manifest.json`);
    expect(await keys(prefix)).not.toContain(`${prefix}voices/af_heart.bin`);
    expect(lastEvents().some((e) => e.type === 'StateCaught' && e.state?.name === 'CopyFiles')).toBe(true);

    // Re-running the failed sync resumes it: objects already verified in S3 are not downloaded again.
    const present = (await keys(prefix)).map((k) => k.slice(prefix.length));
    const downloadsBefore = present.map((path) => hub.downloads(path));
    const output = await execute({ revision: 'corrupt', include: ['config.json', 'voices/*.bin'] });
    expect(output).toMatchObject({ commit: bad, filesSkipped: present.length, filesCopied: 3 - present.length });
    expect(present.map((path) => hub.downloads(path))).toEqual(downloadsBefore);
    expect(await keys(prefix)).toContain(`${prefix}manifest.json`);
  });

  test('throttling by the Hub and by Lambda is retried', async () => {
    const next = hub.addCommit(REPO, { ...files, 'tokenizer.json': '{"version":"3"}' }, 'v3');
    // The Hub client retries a 429 itself; five in a row exhaust it and reach the state machine's Retry.
    hub.inject('/revision/v3', { kind: 'status', status: 429, retryAfter: '0' }, 5);
    hub.inject('voices/am_adam.bin', { kind: 'status', status: 503, retryAfter: '0' }, 5);
    let throttles = 1;
    const copyWithThrottle = async (input: any, real: (input: any) => Promise<any>) => {
      if (throttles-- > 0) throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
      return real(input);
    };
    const output = await execute({ revision: 'v3' }, { wrap: { CopyFile: copyWithThrottle } });
    expect(output).toMatchObject({ commit: next, filesCopied: 5 });
    expect(retried('Resolve')).toBeGreaterThanOrEqual(1);
    expect(retried('CopyFile')).toBeGreaterThanOrEqual(2);
  });

  test('a copy that runs out of time, and a Lambda client timeout, are retried', async () => {
    const next = hub.addCommit(REPO, { ...files, 'tokenizer.json': '{"version":"5"}' }, 'v5');
    const failOnce = (name: string) => {
      let failed = false;
      return async (input: any, real: (input: any) => Promise<any>) => {
        if (!failed) {
          failed = true;
          throw Object.assign(new Error('Task timed out after 900.00 seconds'), { name });
        }
        return real(input);
      };
    };
    const output = await execute(
      { revision: 'v5' },
      {
        wrap: {
          Resolve: failOnce('Lambda.ClientExecutionTimeoutException'),
          CopyFile: failOnce('Sandbox.Timedout'),
          WriteManifest: failOnce('Lambda.Unknown'),
        },
      },
    );
    expect(output).toMatchObject({ commit: next, filesCopied: 5 });
    expect([retried('Resolve'), retried('CopyFile'), retried('WriteManifest')]).toEqual([1, 1, 1]);
  });

  test('a failure names the cause in the execution error', async () => {
    await expect(execute({ include: ['onnx/model_q9.onnx'] })).rejects.toMatchObject({
      cause: expect.objectContaining({ name: 'InvalidSyncInput', message: expect.stringContaining('model_q9') }),
    });
  });
});

describe('the sync resource of `pulumi up` (runSyncExecution), against a local Step Functions endpoint', () => {
  const stateMachineArn = 'arn:aws:states:us-east-1:123456789012:stateMachine:kokoro-dev-weight-sync';

  test('starts one execution per request, waits for it, reuses it, and resumes after a failure', async () => {
    const stand = await startSfnStandIn(async (input) => {
      try {
        return await execute(input as Record<string, unknown>);
      } catch (error) {
        throw (error as Error).cause ?? error; // the Fail state's error name and cause
      }
    });
    const client = new sfn.SFNClient({
      endpoint: stand.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    try {
      const fresh = hub.addCommit(REPO, { ...files, 'tokenizer.json': '{"version":"4"}' }, 'v4');
      const request: SyncRequest = {
        repo: REPO,
        revision: fresh,
        include: INCLUDE,
        bucket: 'weights',
        prefix: 'models/',
      };
      const name = executionName(request);
      expect(name).toMatch(/^sync-[0-9a-f]{12}-[0-9a-f]{24}$/);
      expect(executionName({ ...request, include: ['config.json'] })).not.toBe(name);

      // A corrupted file fails the first execution; `pulumi up` fails with its error and cause.
      hub.inject('voices/am_adam.bin', { kind: 'corrupt' });
      const messages: string[] = [];
      const args = {
        stateMachineArn,
        executionName: name,
        request,
        pollMs: 5,
        log: (m: string) => void messages.push(m),
      };
      await expect(runSyncExecution(sfn, client, args)).rejects.toThrow(
        /weight sync FAILED: DigestMismatch: .*am_adam\.bin/,
      );
      expect(messages[0]).toMatch(/weight sync started/);

      // The next `pulumi up` starts <name>-2, which resumes: files already in S3 are skipped.
      const done = await runSyncExecution(sfn, client, args);
      expect(done).toMatchObject({
        executionArn: expect.stringMatching(new RegExp(`:execution:kokoro-dev-weight-sync:${name}-2$`)),
        commit: fresh,
        modelDataUri: `s3://weights/models/${REPO}/${fresh}/`,
      });
      expect(done.filesCopied + done.filesSkipped).toBe(5);

      // Same request again: the succeeded execution is found and nothing is started.
      const count = stand.executions.size;
      await expect(runSyncExecution(sfn, client, args)).resolves.toEqual(done);
      expect(stand.executions.size).toBe(count);
    } finally {
      client.destroy();
      await stand.close();
    }
  });
});
