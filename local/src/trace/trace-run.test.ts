// `npm start -- --offline --trace` as a user runs it (a child process, the start script's command):
// a turn through `npm run say` prints its trace as a waterfall on the console: the agent's turn,
// sentence and TTS connect spans, Strands' agent span, and under each sentence the container's
// utterance with its stages.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ECHO_ENV, ROOT } from '../testing/npm-run.ts';

const ENV = ECHO_ENV;

let server: ChildProcess;
let output = '';

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end || server.exitCode !== null) throw new Error(`no ${what}; output:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  server = spawn(
    join(ROOT, 'node_modules/.bin/node'),
    ['local/src/stack/main.ts', '--offline', '--port', '0', '--trace'],
    {
      cwd: ROOT,
      env: ENV,
    },
  );
  server.stdout!.on('data', (d: Buffer) => (output += d));
  server.stderr!.on('data', (d: Buffer) => (output += d));
  await until(() => /Open http:\/\/127\.0\.0\.1:\d+\/ in your browser/.test(output), 'start-up');
}, 90_000);

afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  }
});

test('npm start -- --trace prints each turn as a waterfall of agent and container spans', async () => {
  expect(output).toMatch(/tracing: each turn's trace is printed when it ends/);
  const url = /Open (http:\/\/127\.0\.0\.1:\d+\/) in your browser/.exec(output)![1]!;
  const say = spawn(
    'npm',
    ['run', 'say', '--', 'The first sentence is here. A second one follows!', '--target', url, '--out', '/dev/null'],
    {
      cwd: ROOT,
      env: ENV,
    },
  );
  const code = await new Promise((resolve) => say.on('close', resolve));
  expect(code).toBe(0);
  await until(() => /trace [0-9a-f]{32} \(done\)/.test(output) && /kokoro\.synthesis/.test(output), 'waterfall');
  const lines = output.slice(output.search(/trace [0-9a-f]{32} \(done\)/)).split('\n');
  const row = (name: string, depth: number) =>
    new RegExp(`^ +\\d+\\.\\d ms +\\d+\\.\\d ms  ${'  '.repeat(depth)}${name}`);
  const has = (name: string, depth: number) => lines.some((l) => row(name, depth).test(l));
  expect(lines[1]).toMatch(/start +duration +span/);
  expect(lines[2]).toMatch(row('kokoro\\.turn', 0));
  expect(has('tts\\.connect open', 1)).toBe(true);
  expect(has('invoke_agent', 1)).toBe(true);
  expect(has('kokoro\\.sentence s0', 1)).toBe(true);
  expect(has('kokoro\\.sentence s1', 1)).toBe(true);
  expect(has('kokoro\\.utterance s0  \\[kokoro-tts\\]', 2)).toBe(true);
  expect(has('kokoro\\.utterance s1  \\[kokoro-tts\\]', 2)).toBe(true);
  for (const stage of ['queue_wait', 'prep', 'schedule_wait', 'synthesis'])
    expect(has(`kokoro\\.${stage}  \\[kokoro-tts\\]`, 3)).toBe(true);
}, 90_000);
