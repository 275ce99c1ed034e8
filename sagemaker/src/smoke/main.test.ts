// The smoke-test command against the local router and the fake container, as a user runs it.
import { expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fakeAudio } from '@kokoro-speech/protocol/testing';
import { LOCAL_CREDENTIALS } from '../router/index.ts';
import { suiteRouter } from '../testing/router-suite.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const suite = suiteRouter({ endpointName: 'kokoro', maxResponsePartBytes: 100 });
/** The flags that reach the suite's router, then `more`. */
const at = (...more: string[]) => [
  '--endpoint-name',
  'kokoro',
  '--region',
  'eu-west-1',
  '--endpoint',
  suite.router.url,
  ...more,
];

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      ...env,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, out, err })),
  );
}

test('one call: the request line, status and invoked variant, every text message, the audio summed', async () => {
  const text = 'Smoke test sentence.';
  const { code, out, err } = await run(at('--text', text));
  expect(err).toBe('');
  expect(code).toBe(0);
  const lines = out.trim().split('\n');
  expect(lines[0]).toBe(`POST ${suite.router.url}/endpoints/kokoro/invocations-bidirectional-stream`);
  expect(lines[1]).toBe('200 X-Amzn-Invoked-Production-Variant: AllTraffic');
  expect(lines.filter((l) => l.startsWith('< UTF8')).map((l) => JSON.parse(l.slice(7)).type)).toEqual([
    'ready',
    'audio_start',
    'audio_end',
    'done',
  ]);
  expect(lines.at(-1)).toMatch(
    new RegExp(
      `^summary: \\d+ PayloadParts \\([1-9]\\d* PARTIAL\\), \\d+ messages, ${fakeAudio(text).length} audio bytes`,
    ),
  );
});

test('a refused call exits 1 with the AWS error; bad arguments exit 2 with the usage', async () => {
  const refused = await run(['--endpoint-name', 'other', '--region', 'eu-west-1', '--endpoint', suite.router.url]);
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(/^bidi-smoke: ValidationError \(HTTP 400\): .*Endpoint other not found/);
  const bad = await run(at('--target-variant=-x'));
  expect(bad.code).toBe(1);
  expect(bad.err).toMatch(/X-Amzn-SageMaker-Target-Variant "-x" does not match/);
  const usage = await run(['--region', 'eu-west-1']);
  expect(usage.code).toBe(2);
  expect(usage.err).toMatch(/^bidi-smoke: --endpoint-name NAME is required\n\nusage:/);
});
