// The package users install: built by scripts/pack.ts, it declares every package it loads and
// nothing of this repository's private workspaces remains in it; its ESM and CommonJS builds load
// and work under plain Node, and its bundled declarations type-check a user's code.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(HERE, '../..');
// Inside the repository, so that the built files find the packages in its node_modules.
const WORK = join(HERE, 'dist', `test-${process.pid}`);
const OUT = join(WORK, 'package');
let tarball = '';

beforeAll(async () => {
  const { stdout } = await run(process.execPath, [join(HERE, 'scripts/pack.ts'), OUT], { cwd: HERE });
  tarball = stdout.trim().split('\n').at(-1)!;
}, 180_000);
afterAll(() => rm(WORK, { recursive: true, force: true }));

const read = (file: string) => readFile(join(OUT, file), 'utf8');
const SPECIFIERS = /^(?:import|export)\b[^;'"]*?['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;
const packageOf = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;

test('the manifest declares every package the built files load, pinned; the private workspaces are bundled', async () => {
  const manifest = JSON.parse(await read('package.json'));
  expect(manifest).toMatchObject({
    name: '@kokoro-speech/livekit',
    type: 'module',
    exports: {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    peerDependencies: { '@livekit/agents': '^1.9.0', '@livekit/rtc-node': '^0.13.35' },
  });
  expect(manifest.private).toBeUndefined();
  const loaded = new Set<string>();
  for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts']) {
    const code = await read(file);
    expect(code).not.toContain('@kokoro-speech/');
    for (const m of code.matchAll(SPECIFIERS)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith('.') && !isBuiltin(spec)) loaded.add(packageOf(spec));
    }
  }
  const declared = { ...manifest.dependencies, ...manifest.peerDependencies };
  expect([...loaded].filter((p) => !declared[p])).toEqual([]);
  for (const version of Object.values(manifest.dependencies as Record<string, string>))
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(Object.keys(manifest.dependencies)).toContain('ws');
  const { stdout } = await run('tar', ['tzf', tarball]);
  expect(stdout.split('\n').filter(Boolean).sort()).toEqual(
    [
      'LICENSE',
      'NOTICE',
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.js.map',
      'dist/index.cjs',
      'dist/index.cjs.map',
      'dist/index.d.ts',
      'dist/index.d.cts',
    ]
      .map((f) => `package/${f}`)
      .sort(),
  );
});

test('the ESM and CommonJS builds load under plain Node and check their options', async () => {
  const use = (load: string) => `
    const { TTS } = ${load};
    const kokoro = new TTS({ url: 'ws://127.0.0.1:9/invocations-bidirectional-stream', voice: 'af_heart' });
    let refused = '';
    try { new TTS({ url: 'http://wrong' }); } catch (e) { refused = e.constructor.name + ': ' + e.message; }
    console.log(JSON.stringify({ label: kokoro.label, rate: kokoro.sampleRate, model: kokoro.model, refused }));`;
  const cjs = `${use(`require(${JSON.stringify(join(OUT, 'dist/index.cjs'))})`)}`;
  const esm = use(`await import(${JSON.stringify(join(OUT, 'dist/index.js'))})`);
  for (const [code, type] of [
    [cjs, 'commonjs'],
    [esm, 'module'],
  ] as const) {
    const { stdout } = await run(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: WORK });
    expect(JSON.parse(stdout)).toEqual({
      label: 'kokoro.TTS',
      rate: 24000,
      model: 'Kokoro-82M',
      refused: 'TypeError: Kokoro TTS: url must be ws:// or wss://, got "http://wrong"',
    });
  }
});

test("the bundled declarations type-check a user's agent code, and catch a wrong option", async () => {
  const dir = join(WORK, 'consumer');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'agent.ts'),
    `import { voice, tokenize } from '@livekit/agents';
import { TTS, type TTSOptions } from '../package/dist/index.js';
const options: TTSOptions = { endpointName: 'kokoro', region: 'us-east-1', voice: 'af_heart', speed: 1.1 };
const kokoro = new TTS({ ...options, sentenceTokenizer: new tokenize.basic.SentenceTokenizer() });
kokoro.updateOptions({ voice: 'bf_emma' });
const stream = kokoro.stream();
stream.pushText('Hello.');
stream.endInput();
export const session = new voice.AgentSession({ tts: kokoro });
// @ts-expect-error: sampleRate is one of the container's rates
new TTS({ url: 'ws://h:1', sampleRate: 44100 });
`,
  );
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['agent.ts'],
    }),
  );
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).catch((e: { stdout: string }) => e);
  expect(result.stdout).toBe('');
}, 120_000);
