// The invalidation dynamic provider survives Pulumi's closure serialization and, loaded the way
// Pulumi's provider host loads it (require-from-string in a fresh process), asks a local CloudFront
// endpoint to invalidate the page; its diff runs again only when the files (their digest) change.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import * as cloudfront from '@aws-sdk/client-cloudfront';
import { startCloudFrontStandIn, type CloudFrontStandIn } from '../testing/cloudfront-stand-in.ts';
import { createdResult, createInFreshProcess } from '../testing/fresh-provider.ts';
import { createInvalidation, invalidationProvider, type InvalidationRequest } from './invalidation.ts';

const request: InvalidationRequest = { distributionId: 'E2KOKORO0EXAMPLE', paths: ['/*'], digest: 'ab'.repeat(32) };
let stand: CloudFrontStandIn;

beforeAll(async () => {
  stand = await startCloudFrontStandIn([request.distributionId]);
});
afterAll(() => stand.close());

/** Serializes the provider as `pulumi up` does and calls `create` on the deserialized copy in a fresh Node process. */
const createInvalidationResource = (inputs: InvalidationRequest) =>
  createInFreshProcess({
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    module: './invalidation.ts',
    exported: 'invalidationProvider',
    inputs,
    env: { AWS_ENDPOINT_URL_CLOUDFRONT: stand.endpoint, AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' },
  });

describe('invalidationProvider', () => {
  test('serialized and loaded like Pulumi does, create invalidates the paths and returns the id', async () => {
    const before = stand.invalidations.length;
    const result = await createInvalidationResource(request);
    expect(result).toMatchObject({ code: 0 });
    const created = createdResult(result.stdout);
    expect(created).toEqual({
      id: expect.stringMatching(/^I\d{13}$/),
      outs: { ...request, invalidationId: created.id },
    });
    expect(stand.invalidations.slice(before)).toEqual([
      {
        distributionId: request.distributionId,
        paths: ['/*'],
        callerReference: expect.stringMatching(/^a(ba){15}b-\d+$/),
      },
    ]);
  });

  test("an unknown distribution fails create with CloudFront's error", async () => {
    const result = await createInvalidationResource({ ...request, distributionId: 'E0MISSING' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/The specified distribution does not exist/);
  });

  test('diff asks for an update when the files, the paths or the distribution change, not otherwise', async () => {
    const diff = (news: Partial<InvalidationRequest>) =>
      invalidationProvider.diff!('I1', { ...request, invalidationId: 'I1' }, { ...request, ...news });
    expect(await diff({})).toMatchObject({ changes: false });
    expect(await diff({ digest: 'cd'.repeat(32) })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ paths: ['/index.html'] })).toMatchObject({ changes: true });
    expect(await diff({ distributionId: 'E3OTHER' })).toMatchObject({ changes: true });
  });
});

test('the same files invalidated twice make two invalidations (CloudFront would fold a repeated reference)', async () => {
  const client = new cloudfront.CloudFrontClient({
    region: 'us-east-1',
    endpoint: stand.endpoint,
    credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
  });
  const before = stand.invalidations.length;
  const first = await createInvalidation(cloudfront, client, request);
  await new Promise((resolve) => setTimeout(resolve, 2));
  const second = await createInvalidation(cloudfront, client, request);
  expect(first).not.toBe(second);
  const [a, b] = stand.invalidations.slice(before);
  expect(a!.callerReference).not.toBe(b!.callerReference);
  await expect(createInvalidation(cloudfront, client, { ...request, distributionId: 'e2-bad' })).rejects.toThrow(
    "'e2-bad' is not a CloudFront distribution id",
  );
});
