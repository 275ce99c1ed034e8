// The repository's commands as a user runs them, from its root, in a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root (with a trailing slash). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The echo LLM at a pace a turn can be followed at; no NODE_OPTIONS inherited from jest's process. */
export const ECHO_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  ECHO_FIRST_TOKEN_MS: '20',
  ECHO_TOKENS_PER_SECOND: '400',
  LLM_PROVIDER: 'echo',
  NODE_OPTIONS: '',
};

/** `npm ARGS` from the root, to its end: its exit code and all it wrote. */
export function runNpm(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
