// The Lambdas' Hugging Face token: HF_TOKEN wins; else the Secrets Manager secret, read once per
// container, here from a local endpoint speaking the Secrets Manager wire protocol.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyInput, hubToken, parseInput, syncSettings } from './settings.ts';

let server: Server;
let endpoint: string;
const requests: { target: string; body: any }[] = [];
const secretArn = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-AbCdEf';

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(Buffer.concat(await req.toArray()).toString());
    requests.push({ target: String(req.headers['x-amz-target']), body });
    if (body.SecretId !== secretArn) {
      res
        .writeHead(400, { 'content-type': 'application/x-amz-json-1.1' })
        .end(JSON.stringify({ __type: 'ResourceNotFoundException', Message: 'no such secret' }));
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/x-amz-json-1.1' })
      .end(JSON.stringify({ ARN: secretArn, Name: 'hf', SecretString: 'hf_from_secret\n' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('hubToken', () => {
  const saved = { ...process.env };
  const withEnv = async <T>(env: Record<string, string>, fn: () => Promise<T>) => {
    Object.assign(
      process.env,
      {
        AWS_ENDPOINT_URL_SECRETS_MANAGER: endpoint,
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'a',
        AWS_SECRET_ACCESS_KEY: 'b',
      },
      env,
    );
    try {
      return await fn();
    } finally {
      process.env = { ...saved };
    }
  };

  test('reads the secret once and trims it', async () => {
    await withEnv({ HF_TOKEN: '', HF_TOKEN_SECRET_ARN: secretArn }, async () => {
      expect(await hubToken()).toBe('hf_from_secret');
      expect(await hubToken()).toBe('hf_from_secret');
    });
    expect(requests).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: secretArn } }]);
  });

  test('HF_TOKEN wins, and no token at all is fine for public repositories', async () => {
    await withEnv({ HF_TOKEN: 'hf_env', HF_TOKEN_SECRET_ARN: secretArn }, async () =>
      expect(await hubToken()).toBe('hf_env'),
    );
    await withEnv({ HF_TOKEN: '', HF_TOKEN_SECRET_ARN: '' }, async () => expect(await hubToken()).toBeUndefined());
  });

  test('an unreadable secret fails with the service error', async () => {
    await withEnv({ HF_TOKEN: '', HF_TOKEN_SECRET_ARN: `${secretArn}-other` }, async () => {
      await expect(hubToken()).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    });
  });
});

test('a bad step input names the fields', () => {
  expect(() => parseInput(copyInput, { repo: 'o/r', commit: 'main', bucket: 'b', keyPrefix: 'p/' }, 'copy')).toThrow(
    expect.objectContaining({
      name: 'InvalidSyncInput',
      message: expect.stringMatching(/copy input is invalid: commit: .*; file: /),
    }),
  );
});

test("the Lambdas' variables: parsed, and a bad one (once NaN) fails the step naming it", () => {
  expect(syncSettings({ PART_SIZE_MIB: '64', DEFAULT_INCLUDE: '["*.json"]', PREFIX: '' })).toEqual({
    PART_SIZE_MIB: 64,
    DEFAULT_INCLUDE: ['*.json'],
  });
  expect(() => syncSettings({ PART_SIZE_MIB: 'lots' })).toThrow(
    expect.objectContaining({
      name: 'InvalidSyncInput',
      message: expect.stringMatching(/PART_SIZE_MIB: must be a whole number from 5 to 5120, not "lots"/),
    }),
  );
  expect(() => syncSettings({ PART_SIZE_MIB: '1' })).toThrow(/PART_SIZE_MIB: must be a whole number from 5/);
  expect(() => syncSettings({ DEFAULT_INCLUDE: '*.json' })).toThrow(/DEFAULT_INCLUDE: must be a JSON array/);
  expect(() => syncSettings({ DEFAULT_INCLUDE: '{"a":1}' })).toThrow(/DEFAULT_INCLUDE: must be a JSON array/);
});
