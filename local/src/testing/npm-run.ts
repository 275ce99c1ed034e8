// The repository's commands as a user runs them, from its root, in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** The root package's `start` script: the command `npm start` runs. */
export async function startScript(): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
}

export interface StartedStack {
  child: ChildProcess;
  /** The page's address, as printed. */
  url: URL;
  /** All it has written so far (stdout and stderr). */
  output(): string;
}

/** `npm start`'s command (the start script's: node local/src/stack/main.ts ARGS), up once it prints its address. */
export async function startNpmStart(args: string[], env: NodeJS.ProcessEnv): Promise<StartedStack> {
  const child = spawn(join(ROOT, 'node_modules/.bin/node'), ['local/src/stack/main.ts', ...args], { cwd: ROOT, env });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const url = await new Promise<URL>((resolve, reject) => {
    const seen = () => {
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/) in your browser/.exec(output);
      if (m) resolve(new URL(m[1]!));
    };
    child.stdout.on('data', seen);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { child, url, output: () => output };
}
