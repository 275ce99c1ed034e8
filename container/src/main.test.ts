// The container entry point as SageMaker runs it: `main.ts serve`, env configuration, JSON logs,
// /ping after warm-up, and a clean exit on SIGTERM.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureModelDir } from './testing/test-support.ts';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
let model: Awaited<ReturnType<typeof fixtureModelDir>>;

beforeAll(async () => {
  model = await fixtureModelDir();
});
afterAll(async () => {
  await model?.remove();
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

function run(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, out: () => out, err: () => err };
}

test('serve: start-up stages logged, /ping 200 once warm, audio served, SIGTERM exits 0', async () => {
  const port = await freePort();
  const p = run(['serve'], {
    KOKORO_MODEL_DIR: model.dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    PREP_WORKERS: '1',
  });
  let ready = false;
  for (let i = 0; i < 600 && !ready; i++) {
    ready = await fetch(`http://127.0.0.1:${port}/ping`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) await sleep(50);
  }
  expect(ready).toBe(true);
  const res = await fetch(`http://127.0.0.1:${port}/invocations`, {
    method: 'POST',
    body: JSON.stringify({ text: 'Hello there.', format: 'pcm_s16le' }),
  });
  expect(res.status).toBe(200);
  expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  p.child.kill('SIGTERM');
  expect(await p.exit).toBe(0);
  const lines = p
    .out()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const stages = lines.filter((l) => l.msg === 'startup stage').map((l) => l.stage);
  expect(stages).toEqual(['listen', 'load_model', 'load_voices', 'start_prep_workers', 'warm_up', 'ready']);
  for (const l of lines.filter((x) => x.msg === 'startup stage')) expect(typeof l.ms).toBe('number');
  expect(lines.find((l) => l.route === 'POST /invocations')).toMatchObject({
    status: 200,
    samples: expect.any(Number),
  });
  expect(lines.at(-1)).toMatchObject({ msg: 'server stopped', stage: 'shutdown' });
});

test('bad arguments and bad environment stop it with a clear message', async () => {
  const args = run(['train'], {});
  expect(await args.exit).toBe(2);
  expect(args.err()).toMatch(/usage: main.ts \[serve\]/);
  const env = run([], { PORT: 'eighty', KOKORO_DEVICE: 'tpu' });
  expect(await env.exit).toBe(2);
  expect(env.err()).toMatch(/PORT/);
  expect(env.err()).toMatch(/KOKORO_DEVICE/);
  // One ConfigError: each variable with what it takes, and where they are all described.
  expect(env.err()).toContain(
    'kokoro server: invalid configuration: PORT: must be a whole number from 0 to 65535, not "eighty"; KOKORO_DEVICE: must be one of',
  );
  expect(env.err()).toContain('See container/README.md for the environment variables.');
});

test('a missing model folder is fatal: logged, exit 1', async () => {
  const p = run([], { KOKORO_MODEL_DIR: '/nonexistent/model', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  expect(await p.exit).toBe(1);
  expect(p.out()).toMatch(/"level":60.*missing config\.json/);
});

test('a lexicon with a symbol Kokoro lacks, or a duplicate, stops it at start, naming the entries', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lexicon-main-'));
  try {
    const badSymbol = join(dir, 'symbol.json');
    await writeFile(badSymbol, JSON.stringify({ entries: [{ word: 'Kokoro', phonemes: 'kˈOkə☃O' }] }));
    const duplicate = join(dir, 'duplicate.json');
    await writeFile(
      duplicate,
      JSON.stringify({
        entries: [
          { word: 'AWS', say: 'a' },
          { word: 'aws', say: 'b' },
        ],
      }),
    );
    const env = { KOKORO_MODEL_DIR: model.dir, PORT: '0', HOST: '127.0.0.1' };
    const a = run([], { ...env, KOKORO_LEXICON: badSymbol });
    expect(await a.exit).toBe(2);
    expect(a.err()).toContain(
      `kokoro server: lexicon ${badSymbol}, entry 1 ("Kokoro"): the phoneme "☃" (U+2603) in "kˈOkə☃O" is not in Kokoro's vocabulary`,
    );
    const b = run([], { ...env, KOKORO_LEXICON: duplicate });
    expect(await b.exit).toBe(2);
    expect(b.err()).toContain('entry 1 ("AWS") and entry 2 ("aws") are the same word (case-insensitive)');
    expect(b.out()).toBe(''); // refused before it listened
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
