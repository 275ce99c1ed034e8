// A local S3 for tests: s3rver on loopback with one bucket, plus the environment the AWS SDK reads
// (AWS_ENDPOINT_URL_S3, region, credentials) so code under test builds its client unchanged.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3StandIn {
  endpoint: string;
  bucket: string;
  /** Environment for the SDK's standard settings. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3StandIn(bucket = 'weights'): Promise<S3StandIn> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
