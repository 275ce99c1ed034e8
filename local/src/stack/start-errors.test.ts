// `npm start` as a newcomer meets it when something is not set up: the command the root start
// script runs, in a child process, with no AWS set-up and a scratch home. Each path ends at once
// with exit status 2 and a message that names the fix; none prints a stack trace or the Kokoro
// server's JSON log.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ARN = 'arn:aws:bedrock-agentcore:eu-west-1:123456789012:runtime/kokoro_agent-AbC123';

let scratch: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'start-errors-'));
  // No AWS set-up anywhere the credential chain looks, and nothing of the user's own cache.
  // (and none of npm start's own settings from the environment running the tests).
  const own = /^(AWS_|KOKORO_|LLM_PROVIDER$|OPENAI_|BEDROCK_)/;
  env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !own.test(k))),
    HOME: scratch,
    XDG_CACHE_HOME: join(scratch, 'cache'),
    AWS_CONFIG_FILE: join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    HF_ENDPOINT: 'http://127.0.0.1:9',
    NODE_OPTIONS: '',
  };
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

interface Run {
  code: number | null;
  output: string;
}

/** `npm start -- ARGS` as the start script runs it; resolves when it exits (or, with `until`, once that shows). */
function start(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
  until?: RegExp,
): Promise<Run & { stop?: () => Promise<number | null> }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/node'), ['local/src/stack/main.ts', ...args], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    const timer = until
      ? setInterval(() => {
          if (!until.test(output)) return;
          clearInterval(timer);
          resolve({
            code: null,
            get output() {
              return output;
            },
            stop: () =>
              new Promise((done) => {
                child.once('exit', (code) => done(code));
                child.kill('SIGINT');
              }),
          });
        }, 50)
      : undefined;
    child.on('exit', (code) => {
      if (timer) clearInterval(timer);
      resolve({ code, output });
    });
  });
}

/** What every one of these paths shares: status 2, the message, nothing loaded first, no noise. */
function expectStoppedWithFix(run: Run, ...parts: (string | RegExp)[]): void {
  expect(run.code).toBe(2);
  for (const part of parts) expect(run.output).toMatch(part);
  expect(run.output).not.toMatch(/"level":|\n\s+at .+:\d+:\d+\)?\n|Cannot read properties|\bOpen http/);
}

describe('npm start stops at once, naming the fix', () => {
  test('--llm bedrock without AWS credentials (and LLM_PROVIDER=bedrock, named as such)', async () => {
    const run = await start(['--offline', '--port', '0', '--llm', 'bedrock']);
    expectStoppedWithFix(
      run,
      /^npm start: --llm bedrock needs AWS credentials, and none resolve/,
      'aws configure',
      'aws sso login --profile NAME',
      'AWS_PROFILE=NAME',
    );
    expect(run.output).not.toMatch(/loading|using the echo model instead/);
    const viaEnv = await start(['--offline', '--port', '0'], { LLM_PROVIDER: 'bedrock' });
    expectStoppedWithFix(viaEnv, /^npm start: LLM_PROVIDER=bedrock needs AWS credentials/);
  });

  test('--target without AWS credentials, before the first turn', async () => {
    const run = await start(['--target', ARN, '--port', '0']);
    expectStoppedWithFix(run, `npm start: --target ${ARN} needs AWS credentials`, 'aws sso login');
  });

  test('a port in use, before the model is loaded, suggesting --port 0', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const run = await start(['--offline', '--port', String(port)]);
      expectStoppedWithFix(run, `port ${port} on 127.0.0.1 is already in use`, '--port 0');
      expect(run.output).not.toMatch(/loading/);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  test("--auth with the provider's port (the page's + 1) in use, before the model is loaded", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const held = (holder.address() as net.AddressInfo).port;
    try {
      const run = await start(['--offline', '--auth', '--port', String(held - 1)]);
      expectStoppedWithFix(
        run,
        `port ${held} on 127.0.0.1, where --auth puts the sign-in provider (the page's port + 1), is not free`,
        `npm start -- --auth --port ${held + 9}`,
      );
      expect(run.output).not.toMatch(/loading/);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  test('--auth comes up with the sign-in in its banner, and config.json naming the provider', async () => {
    const run = await start(['--offline', '--auth', '--port', '0'], {}, /Open http:\/\/\S+/);
    try {
      expect(run.output).toMatch(
        / {2}Sign-in local provider http:\/\/127\.0\.0\.1:\d+ \(alice\/alice-speaks, bob\/bob-listens\)/,
      );
      const url = /Open (http:\/\/\S+) in your browser/.exec(run.output)![1]!;
      const config = (await (await fetch(new URL('/config.json', url))).json()) as { auth: { authority: string } };
      const discovery = await fetch(`${config.auth.authority}/.well-known/openid-configuration`);
      expect(((await discovery.json()) as { issuer: string }).issuer).toBe(config.auth.authority);
    } finally {
      expect(await run.stop!()).toBe(0);
    }
  });

  test('--model-dir: a missing folder, an empty one, placeholders, each with every file named at once', async () => {
    const missing = await start(['--model-dir', join(scratch, 'nowhere'), '--port', '0']);
    expectStoppedWithFix(missing, `--model-dir ${join(scratch, 'nowhere')}: there is no such folder`, 'curl -fL');

    const empty = join(scratch, 'empty');
    await mkdir(empty);
    const run = await start(['--port', '0'], { KOKORO_MODEL_DIR: empty });
    expectStoppedWithFix(
      run,
      `KOKORO_MODEL_DIR=${empty} cannot be loaded`,
      'it has no config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx',
      'curl -fL --create-dirs',
    );

    const placeholders = join(scratch, 'placeholders');
    await mkdir(join(placeholders, 'onnx'), { recursive: true });
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json'])
      await writeFile(join(placeholders, file), '{}');
    await writeFile(join(placeholders, 'onnx/model_quantized.onnx'), 'placeholder');
    const ph = await start(['--model-dir', placeholders, '--port', '0']);
    expectStoppedWithFix(
      ph,
      `--model-dir ${placeholders} cannot be loaded`,
      'config.json has no "model_type"',
      'tokenizer.json is not a tokenizer file',
      'onnx/model_quantized.onnx is text, not an ONNX model',
    );
  });

  test('--model-dir with a model that fails to load: the reason in one line, not the server log', async () => {
    const broken = join(scratch, 'broken');
    await writeFixtureModel(broken);
    const model = await readFile(join(broken, 'onnx/model.onnx'));
    await writeFile(join(broken, 'onnx/model_quantized.onnx'), model.subarray(0, Math.floor(model.length / 2)));
    const run = await start(['--model-dir', broken, '--port', '0']);
    expectStoppedWithFix(run, `the Kokoro server could not load the model in --model-dir ${broken}:`, 'curl -fL');
  }, 60_000);

  test('--voice that the model does not have: every voice listed', async () => {
    const run = await start(['--offline', '--port', '0', '--voice', 'zz_bogus']);
    expectStoppedWithFix(run, /npm start: --voice zz_bogus is not a voice of this model\. Its \d+ voices:/);
    for (const voice of ['af_heart', 'am_adam', 'bf_emma', 'bm_lewis']) expect(run.output).toContain(voice);
    expect(run.output).not.toMatch(/, \.\.\./);
  }, 60_000);

  test('--instances 2: the voice checked against the instances (--voice and KOKORO_VOICE), a failed load in one line', async () => {
    const run = await start(['--offline', '--port', '0', '--instances', '2', '--voice', 'zz_bogus']);
    expectStoppedWithFix(run, /npm start: --voice zz_bogus is not a voice of this model\. Its \d+ voices:/);
    for (const voice of ['af_heart', 'am_adam', 'bf_emma', 'bm_lewis']) expect(run.output).toContain(voice);
    const viaEnv = await start(['--offline', '--port', '0', '--instances', '2'], { KOKORO_VOICE: 'zz_bogus' });
    expectStoppedWithFix(viaEnv, /npm start: KOKORO_VOICE=zz_bogus is not a voice of this model\. Its \d+ voices:/);

    const broken = join(scratch, 'broken-instances');
    await writeFixtureModel(broken);
    const model = await readFile(join(broken, 'onnx/model.onnx'));
    await writeFile(join(broken, 'onnx/model_quantized.onnx'), model.subarray(0, Math.floor(model.length / 2)));
    const failed = await start(['--model-dir', broken, '--port', '0', '--instances', '2']);
    expectStoppedWithFix(failed, `the Kokoro server could not load the model in --model-dir ${broken}:`, 'curl -fL');
    expect(failed.output).not.toMatch(/server failed: \{/);
  }, 120_000);

  test('an unknown option: the usage, status 2', async () => {
    const run = await start(['--prot', '3000']);
    expect(run.code).toBe(2);
    expect(run.output).toContain("npm start: Unknown option '--prot'");
    expect(run.output).toContain('usage: npm start -- [options]');
  });
});

describe('--host beyond loopback', () => {
  test('says who can use the agent, and how to open the page from another machine', async () => {
    const run = await start(
      ['--offline', '--port', '0', '--host', '0.0.0.0'],
      {},
      /Open http:\/\/127\.0\.0\.1:(\d+)\//,
    );
    try {
      const port = /Open http:\/\/127\.0\.0\.1:(\d+)\//.exec(run.output)![1]!;
      expect(run.output).toContain('warning: listening on 0.0.0.0, not only on loopback');
      expect(run.output).toContain(`ssh -L ${port}:127.0.0.1:${port} <this host>`);
      expect(run.output).toContain('over https');
    } finally {
      expect(await run.stop!()).toBe(0);
    }
  }, 60_000);
});

describe('the AWS region is the one the agent would use, and it is shown', () => {
  test('AWS_DEFAULT_REGION, in the banner and in /api/info', async () => {
    const run = await start(
      ['--offline', '--port', '0', '--llm', 'bedrock'],
      // Credentials that resolve (nothing calls AWS until a turn), and only the default region.
      { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'not-a-secret', AWS_DEFAULT_REGION: 'eu-central-1' },
      /Open (http:\/\/127\.0\.0\.1:\d+\/) in your browser/,
    );
    try {
      expect(run.output).toMatch(/Region\s+eu-central-1 \(AWS_DEFAULT_REGION\)/);
      expect(run.output).toMatch(/LLM\s+Bedrock model .* in eu-central-1/);
      const url = /Open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output)![1]!;
      await expect((await fetch(new URL('/api/info', url))).json()).resolves.toMatchObject({
        llm: { name: 'bedrock' },
        region: { name: 'eu-central-1', source: 'AWS_DEFAULT_REGION' },
      });
    } finally {
      expect(await run.stop!()).toBe(0);
    }
  }, 60_000);
});
