// The router's own command, as a user runs it: a child process in front of the fake container,
// called with the bidirectional-stream client, stopped with SIGTERM; bad arguments exit 2.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { openBidiStream } from '../client/index.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
let fake: FakeContainer;
beforeAll(async () => (fake = await startFakeContainer()));
afterAll(() => fake.close());

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: '', ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /SageMaker runtime \(local\) at (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`exited: ${err}`)));
  });
  url.catch(() => {});
  return { child, url, exited, output: () => ({ out, err }) };
}

test('serves the bidirectional stream in front of a container and stops cleanly on SIGTERM', async () => {
  const router = start([
    '--container',
    fake.url,
    '--port',
    '0',
    '--endpoint-name',
    'mine',
    '--variant',
    'blue',
    '--max-part-bytes',
    '64',
    '--max-stream-seconds',
    '600',
  ]);
  const url = await router.url;
  expect(router.output().out).toContain(`AWS_ACCESS_KEY_ID=${LOCAL_CREDENTIALS.accessKeyId}`);
  const stream = await openBidiStream({
    endpointName: 'mine',
    region: 'eu-west-1',
    endpoint: url,
    credentials: LOCAL_CREDENTIALS,
  });
  expect(stream.invokedProductionVariant).toBe('blue');
  stream.send({ bytes: fromUtf8(JSON.stringify({ type: 'config' })), dataType: 'UTF8' });
  // The ready message (over 64 bytes) arrives as PARTIAL..COMPLETE parts: join them.
  const responses = stream.responses[Symbol.asyncIterator]();
  const parts: Uint8Array[] = [];
  for (let next = await responses.next(); ; next = await responses.next()) {
    const part = next.value as { bytes: Uint8Array; completionState?: string };
    expect(part.bytes.byteLength).toBeLessThanOrEqual(64);
    parts.push(part.bytes);
    if (part.completionState !== 'PARTIAL') break;
  }
  expect(parts.length).toBeGreaterThan(1);
  const first = { value: { bytes: Buffer.concat(parts) } };
  expect(JSON.parse(toUtf8((first.value as { bytes: Uint8Array }).bytes))).toMatchObject({ type: 'ready' });
  stream.close();
  await expect(
    openBidiStream({ endpointName: 'other', region: 'eu-west-1', endpoint: url, credentials: LOCAL_CREDENTIALS }),
  ).rejects.toMatchObject({ code: 'ValidationError' });
  router.child.kill('SIGTERM');
  expect(await router.exited).toBe(0);
});

test('a missing or bad --container exits 2 with the usage', async () => {
  for (const args of [
    [],
    ['--container', 'ftp://x'],
    ['--container', fake.url, '--port', 'x'],
    ['--bogus'],
    ['--container', fake.url, '--max-part-bytes', '0'],
    ['--container', fake.url, '--max-part-bytes', '1.5'],
    ['--container', fake.url, '--max-stream-seconds', 'soon'],
    ['--container', fake.url, '--variant=-blue'],
  ]) {
    const run = start(args);
    expect(await run.exited).toBe(2);
    expect(run.output().err).toMatch(/^sagemaker-local: .+\n\nusage: npm run sagemaker-local/);
  }
});

test('--container given twice: the two containers are the variant’s instances', async () => {
  const second = await startFakeContainer();
  try {
    const router = start(['--container', fake.url, '--container', second.url, '--port', '0']);
    const url = await router.url;
    expect(router.output().out).toContain(`-> ${fake.url}, ${second.url}`);
    const streams = await Promise.all(
      [0, 1].map(() =>
        openBidiStream({ endpointName: 'k', region: 'eu-west-1', endpoint: url, credentials: LOCAL_CREDENTIALS }),
      ),
    );
    for (const stream of streams)
      stream.send({ bytes: fromUtf8(JSON.stringify({ type: 'config' })), dataType: 'UTF8' });
    // One stream on each: each container gets one config.
    for (let i = 0; i < 300 && second.received.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(second.received.filter((r) => (r.message as { type: string }).type === 'config')).toHaveLength(1);
    for (const stream of streams) stream.close();
    router.child.kill('SIGTERM');
    expect(await router.exited).toBe(0);
  } finally {
    await second.close();
  }
});

test('LOG_LEVEL turns on its log (JSON lines, service sagemaker-local); without it, only the banner', async () => {
  const failOnce = async (router: ReturnType<typeof start>) => {
    const url = await router.url;
    await expect(
      openBidiStream({ endpointName: 'k', region: 'eu-west-1', endpoint: url, credentials: LOCAL_CREDENTIALS }),
    ).rejects.toMatchObject({ status: 424 });
  };
  const logged = start(['--container', 'http://127.0.0.1:1', '--port', '0'], { LOG_LEVEL: 'warn' });
  await failOnce(logged);
  for (let i = 0; i < 300 && !logged.output().out.includes('{'); i++) await new Promise((r) => setTimeout(r, 10));
  const line = JSON.parse(
    logged
      .output()
      .out.split('\n')
      .find((l) => l.startsWith('{'))!,
  );
  expect(line).toMatchObject({ level: 40, service: 'sagemaker-local', msg: 'container instance failed' });
  expect(new Date(line.time).toISOString()).toBe(line.time);
  logged.child.kill('SIGTERM');
  expect(await logged.exited).toBe(0);

  const quiet = start(['--container', 'http://127.0.0.1:1', '--port', '0']);
  await failOnce(quiet);
  quiet.child.kill('SIGTERM');
  expect(await quiet.exited).toBe(0);
  expect(quiet.output().out).toMatch(/^SageMaker runtime \(local\) at [^{]*Ctrl-C stops\.\nstopping\n$/);

  const bad = start(['--container', fake.url], { LOG_LEVEL: 'loud' });
  expect(await bad.exited).toBe(2);
  expect(bad.output().err).toMatch(/^sagemaker-local: LOG_LEVEL must be one of fatal, .+, not loud\n\nusage:/);
});
