// The sync-on-up dynamic provider survives Pulumi's closure serialization and, loaded the way
// Pulumi's provider host loads it (require-from-string in a fresh process), starts and waits for an
// execution on a local Step Functions endpoint. Its diff re-runs the sync only for a new request.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createdResult, createInFreshProcess } from '../testing/fresh-provider.ts';
import { startSfnStandIn, type SfnStandIn } from '../testing/sfn-stand-in.ts';
import { syncProvider, type SyncRequest } from './sync-execution.ts';

const commit = 'd'.repeat(40);
const request: SyncRequest = {
  repo: 'acme/tts',
  revision: commit,
  include: ['*.json'],
  bucket: 'weights',
  prefix: 'models/',
};
const stateMachineArn = 'arn:aws:states:us-east-1:123456789012:stateMachine:kokoro-dev-weight-sync';
let stand: SfnStandIn;
let outcome: 'succeed' | 'fail' = 'succeed';

beforeAll(async () => {
  stand = await startSfnStandIn(async (input) => {
    const { repo, bucket, prefix } = input as SyncRequest;
    if (outcome === 'fail')
      throw Object.assign(new Error('voices/x.bin: SHA-256 0000 differs from the listed 1111; nothing was written'), {
        name: 'DigestMismatch',
      });
    const keyPrefix = `${prefix}${repo}/${commit}/`;
    return {
      repo,
      commit,
      modelDataUri: `s3://${bucket}/${keyPrefix}`,
      manifestKey: `${keyPrefix}manifest.json`,
      filesCopied: 2,
      filesSkipped: 0,
      bytesCopied: 10,
    };
  });
});
afterAll(() => stand.close());

/** Serializes the provider as `pulumi up` does and calls `create` on the deserialized copy in a fresh Node process. */
const createExecution = (executionName: string) =>
  createInFreshProcess({
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    module: './sync-execution.ts',
    exported: 'syncProvider',
    inputs: { stateMachineArn, region: 'us-east-1', executionName, request, timeoutMinutes: 1 },
    env: {
      AWS_ENDPOINT_URL_SFN: stand.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'a',
      AWS_SECRET_ACCESS_KEY: 'b',
    },
  });

describe('syncProvider', () => {
  test('serialized and loaded like Pulumi does, create runs the sync and returns its outputs', async () => {
    const result = await createExecution('sync-ok');
    expect(result.code).toBe(0);
    const created = createdResult(result.stdout);
    expect(created.id).toBe('arn:aws:states:us-east-1:123456789012:execution:kokoro-dev-weight-sync:sync-ok');
    expect(created.outs).toMatchObject({
      commit,
      modelDataUri: `s3://weights/models/acme/tts/${commit}/`,
      manifestKey: `models/acme/tts/${commit}/manifest.json`,
      request,
    });
  });

  test('a failed execution fails create with its error and cause', async () => {
    outcome = 'fail';
    try {
      const result = await createExecution('sync-bad');
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/weight sync FAILED: DigestMismatch: voices\/x\.bin: SHA-256/);
    } finally {
      outcome = 'succeed';
    }
  });

  test('diff asks for an update only when the request changes', async () => {
    const olds = { stateMachineArn, region: 'us-east-1', executionName: 'a', request, timeoutMinutes: 60 };
    expect(await syncProvider.diff!('id', olds, { ...olds, stateMachineArn: `${stateMachineArn}-2` })).toMatchObject({
      changes: false,
    });
    expect(
      await syncProvider.diff!('id', olds, { ...olds, request: { ...request, revision: 'e'.repeat(40) } }),
    ).toMatchObject({ changes: true, replaces: [] });
    expect(
      await syncProvider.diff!('id', olds, { ...olds, request: { ...request, include: ['*.json', 'voices/*.bin'] } }),
    ).toMatchObject({ changes: true });
  });
});
