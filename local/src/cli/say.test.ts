// `npm run say`'s entry point on a command-line mistake: exit 2, a message with its quotes
// balanced (Node's own hint for an unknown option leaves one open), then the usage.
import { expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

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
