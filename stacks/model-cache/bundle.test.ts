// The Lambda bundles are self-contained: a bundled handler runs from a folder with no node_modules.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startHubStandIn, type HubStandIn } from '@kokoro-speech/weights/testing';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bundleHandler, handlerEntry } from './bundle.ts';

let hub: HubStandIn;
let dir: string;
beforeAll(async () => {
  hub = await startHubStandIn();
  dir = await mkdtemp(join(tmpdir(), 'lambda-bundle-'));
});
afterAll(async () => {
  await hub.close();
  await rm(dir, { recursive: true, force: true });
});

describe('bundleHandler', () => {
  test('bundles the resolve handler into one ESM file that runs without node_modules', async () => {
    const commit = hub.addCommit('acme/tiny', { 'config.json': '{}', 'onnx/model.onnx': Buffer.alloc(10, 1) });
    const bundle = await bundleHandler(handlerEntry('resolve'));
    expect(JSON.parse(bundle.sourceMap).version).toBe(3);
    await writeFile(join(dir, 'index.mjs'), bundle.code);
    const script =
      'const { handler } = await import(process.argv[1]); process.stdout.write(JSON.stringify(await handler({})));';
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', script, join(dir, 'index.mjs')],
      {
        cwd: dir,
        env: {
          PATH: process.env['PATH'],
          HF_ENDPOINT: hub.url,
          DEFAULT_REPO: 'acme/tiny',
          DEFAULT_REVISION: 'main',
          DEFAULT_INCLUDE: '["*.json"]',
          BUCKET: 'b',
          PREFIX: 'models/',
          AWS_REGION: 'us-east-1',
        },
      },
    );
    const output = JSON.parse(stdout.slice(stdout.indexOf('{"repo"')));
    expect(output).toMatchObject({
      repo: 'acme/tiny',
      commit,
      bucket: 'b',
      keyPrefix: `models/acme/tiny/${commit}/`,
      totalBytes: 2,
    });
    expect(output.files.map((f: { path: string }) => f.path)).toEqual(['config.json']);
  });

  test('fails with the entry named when the source does not build', async () => {
    const broken = join(dir, 'broken.ts');
    await writeFile(broken, "import { nothing } from './missing.ts';\nexport const handler = nothing;\n");
    await expect(bundleHandler(broken)).rejects.toThrow(/missing\.ts/);
  });
});
