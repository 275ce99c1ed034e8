// `npm test`, `npm run test:unit` and `npm run jest` silence the one warning every test file would
// print: Node's ExperimentalWarning for the VM modules jest needs for ES modules (two lines per
// file). Checked with the scripts' own NODE_OPTIONS on the pinned Node that runs them.
import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

/** The NODE_OPTIONS a script sets for jest. */
function nodeOptionsOf(script: string): string {
  const m = /NODE_OPTIONS="([^"]+)" jest/.exec(script);
  if (!m) throw new Error(`no NODE_OPTIONS="..." jest in ${JSON.stringify(script)}`);
  return m[1]!;
}

/** stderr of the pinned Node loading an ES module through node:vm, as jest does. */
async function vmModuleStderr(nodeOptions: string): Promise<string> {
  const { stderr } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/node'),
    ['-e', "const vm = require('node:vm'); new vm.SourceTextModule('export const x = 1;');"],
    { env: { ...process.env, NODE_OPTIONS: nodeOptions } },
  );
  return stderr;
}

describe('test output without the expected warning', () => {
  test('the ExperimentalWarning of VM modules is silenced by the test scripts, and only it', async () => {
    // Without the switch the warning is there: this is what would fill the output.
    expect(await vmModuleStderr('--experimental-vm-modules')).toContain('ExperimentalWarning: VM Modules');
    for (const name of ['test', 'test:unit', 'jest']) {
      const options = nodeOptionsOf(scripts[name]!);
      expect(options.split(' ')).toEqual(['--experimental-vm-modules', '--disable-warning=ExperimentalWarning']);
      expect(await vmModuleStderr(options)).toBe('');
    }
    // Other warnings still show (a deprecation, say).
    const { stderr } = await promisify(execFile)(
      join(ROOT, 'node_modules/.bin/node'),
      ['-e', "process.emitWarning('old API', 'DeprecationWarning')"],
      { env: { ...process.env, NODE_OPTIONS: nodeOptionsOf(scripts['test']!) } },
    );
    expect(stderr).toContain('DeprecationWarning: old API');
  });

  test('npm test runs its steps directly, so no nested npm repeats its warnings', () => {
    expect(scripts['test']).toMatch(/^tsc --build && prettier --check --log-level warn \. && NODE_OPTIONS=/);
  });
});
