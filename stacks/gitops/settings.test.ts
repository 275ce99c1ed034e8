// The gitops settings: required keys named when missing, example values refused, the default
// executor image pinned to the SDK's CLI version, and its Node 24 pre-run steps.
import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { DEFAULT_EXECUTOR_IMAGE, preRunCommands, readSettings } from './settings.ts';

const source = (values: Record<string, string>) => ({ get: (key: string) => values[key] });
const defaults = { organization: 'acme', stack: 'dev' };
const valid = { repository: 'acme/kokoro-speech', awsRoleArn: 'arn:aws:iam::111122223333:role/deployer' };
const root = new URL('../../', import.meta.url);

describe('readSettings', () => {
  test('takes the required keys and defaults the rest', () => {
    expect(readSettings(source(valid), defaults)).toEqual({
      ...valid,
      organization: 'acme',
      layerStack: 'dev',
      branch: 'main',
      executorImage: DEFAULT_EXECUTOR_IMAGE,
    });
  });

  test.each([
    [{ awsRoleArn: valid.awsRoleArn }, "config 'kokoro-gitops:repository' is required: pulumi config set repository"],
    [{ repository: valid.repository }, "config 'kokoro-gitops:awsRoleArn' is required: pulumi config set awsRoleArn"],
    [
      { ...valid, repository: 'your-github-org/kokoro-speech' },
      "config 'kokoro-gitops:repository' is still an example value",
    ],
    [
      { ...valid, awsRoleArn: 'arn:aws:iam::123456789012:role/pulumi-deployments' },
      "config 'kokoro-gitops:awsRoleArn' is still an example value",
    ],
    [{ ...valid, repository: 'kokoro-speech' }, "config 'kokoro-gitops:repository' must be 'owner/name'"],
    [{ ...valid, awsRoleArn: 'deployer' }, "config 'kokoro-gitops:awsRoleArn' must be an IAM role ARN"],
    [{ ...valid, executorImage: 'pulumi/pulumi 3' }, "config 'kokoro-gitops:executorImage' must be an image reference"],
  ])('refuses %j', (values, message) => {
    expect(() => readSettings(source(values), defaults)).toThrow(message);
  });

  test("the root Pulumi.dev.yaml holds no value for the required keys, so they fail with the key's name", () => {
    const dev = parse(readFileSync(new URL('Pulumi.dev.yaml', root), 'utf8')).config as Record<string, string>;
    const values = Object.fromEntries(
      Object.entries(dev).map(([k, v]) => [k.replace(/^kokoro-gitops:/, ''), String(v)]),
    );
    expect(() => readSettings(source(values), defaults)).toThrow("config 'kokoro-gitops:repository' is required");
  });
});

test("the default executor image is Pulumi's image at the CLI version of the SDK, as Pulumi.yaml says", () => {
  const sdk = JSON.parse(readFileSync(new URL('stacks/package.json', root), 'utf8')).dependencies['@pulumi/pulumi'];
  expect(DEFAULT_EXECUTOR_IMAGE).toBe(`pulumi/pulumi:${sdk}`);
  const project = parse(readFileSync(new URL('Pulumi.yaml', root), 'utf8'));
  expect(project.config.executorImage.default).toBe(DEFAULT_EXECUTOR_IMAGE);
});

test('the Node check passes on Node 24 and stops, naming executorImage, on any other', async () => {
  const check = preRunCommands[1]!;
  const run = (path: string) =>
    promisify(execFile)('sh', ['-c', check], { env: { PATH: path } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
  expect(process.versions.node.split('.')[0]).toBe('24'); // the tests run on the project's Node
  expect(await run(`${dirname(process.execPath)}:/usr/bin:/bin`)).toEqual({ code: 0, stderr: '' });
  const bin = await mkdtemp(join(tmpdir(), 'node22-'));
  await writeFile(join(bin, 'node'), '#!/bin/sh\n[ "$1" = --version ] && echo v22.0.0 && exit 0\nexit 1\n', {
    mode: 0o755,
  });
  expect(await run(`${bin}:/usr/bin:/bin`)).toMatchObject({
    code: 1,
    stderr: "config 'executorImage' must provide Node 24, found v22.0.0\n",
  });
  await rm(bin, { recursive: true });
});
