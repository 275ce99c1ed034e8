// `npm run say`'s entry point on a command-line mistake: exit 2, a message with its quotes
// balanced (Node's own hint for an unknown option leaves one open), then the usage; and with
// nothing listening at its target, a hint that npm start may not be running.
import { expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { ECHO_ENV, ROOT, runNpm } from '../testing/npm-run.ts';

const run = (args: string[]) => runNpm(args, ECHO_ENV);

test('an unknown option: exit 2, the hint for a prompt that starts with "-", balanced', async () => {
  const child = spawn(`${ROOT}node_modules/.bin/node`, ['local/src/cli/say.ts', '--nope', 'hi'], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', resolve);
  });
  expect(code).toBe(2);
  const line = stderr.split('\n')[0]!;
  expect(line).toBe(
    `say: Unknown option '--nope' (an argument that starts with '-' goes last, after '--': npm run say -- -- "--nope")`,
  );
  expect(stderr).toContain('usage: npm run say');
}, 60_000);

test('say explains bad usage', async () => {
  const result = await run(['run', 'say', '--', '--transport', 'carrier-pigeon', 'hi']);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/--transport must be sse or ws/);
  const badSession = await run(['run', 'say', '--', '--session', 'short', 'hi']);
  expect(badSession.code).toBe(2);
  expect(badSession.stderr).toMatch(/--session must be 33-256 letters, digits, - and _ \(or "new"\), not "short"/);
});

test('say: nobody listening is a hint that npm start may not be running', async () => {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  for (const transport of ['sse', 'ws']) {
    const result = await run([
      'run',
      'say',
      '--',
      'hi',
      '--transport',
      transport,
      '--target',
      `http://127.0.0.1:${port}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `nothing answers at http://127.0.0.1:${port} (connection refused). Is npm start running?`,
    );
  }
});
