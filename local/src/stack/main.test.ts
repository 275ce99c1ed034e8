// `npm start`'s entry point refuses what it cannot run before it loads anything: an unknown tool
// name, an agent variable out of the runtime's range, an unknown option. Exit 2, the message
// naming the problem and what is accepted, then the usage.
import { describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OWN = /^(AWS_|KOKORO_|LLM_|OPENAI_|BEDROCK_|ECHO_|TOOL_|BUILTIN_TOOLS$|SYSTEM_PROMPT$)/;

/** `node local/src/stack/main.ts ARGS`, as `npm start -- ARGS` runs it, to its exit. */
function start(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !OWN.test(k)));
  const child = spawn(`${ROOT}node_modules/.bin/node`, ['local/src/stack/main.ts', ...args], {
    cwd: ROOT,
    env: { ...env, NODE_OPTIONS: '', ...extraEnv },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('npm start refuses at once', () => {
  test('an unknown tool name: exit 2, naming the tools there are', async () => {
    const run = await start(['--offline', '--port', '0', '--tools', 'time,clock']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'npm start: --tools takes time, calculator (or by the names the model calls them, current_time, calculate), comma-separated, not clock',
    );
    expect(run.stderr).toContain('usage: npm start -- [options]');
    const viaEnv = await start(['--offline', '--port', '0'], { BUILTIN_TOOLS: 'calculator,shell' });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain('npm start: BUILTIN_TOOLS.1: must list time, calculator');
    expect(viaEnv.stderr).toContain('not "shell"');
  }, 60_000);

  test("an agent variable out of the runtime's range: exit 2, naming it", async () => {
    const run = await start(['--offline', '--port', '0'], { TOOL_FILLER_AFTER_MS: '90000' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'npm start: TOOL_FILLER_AFTER_MS: must be a whole number from 0 to 60000, not "90000"',
    );
  }, 60_000);

  test('an unknown option: the message with its quotes balanced', async () => {
    const run = await start(['--prot', '3000']);
    expect(run.code).toBe(2);
    const line = run.stderr.split('\n')[0]!;
    expect(line).toBe("npm start: Unknown option '--prot'");
  }, 60_000);
});
