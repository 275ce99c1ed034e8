// Builds the package users install: JavaScript (ESM and CommonJS, as LiveKit's own plugins ship)
// and bundled type declarations, made by tsup (LiveKit's plugins' build tool) from the TypeScript
// sources. This repository's own workspaces (the TTS session layer, the segmenter, the SageMaker
// client, the protocol) are private, so they are bundled in; every npm package stays an import and
// becomes a dependency of the package, pinned at the repository's version.
//   npm run pack -w integrations/livekit   ->   integrations/livekit/dist/kokoro-speech-livekit-<version>.tgz
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(HERE, '../..');
/** The workspaces whose pinned dependency versions the bundle's imports take. */
const WORKSPACES = ['integrations/livekit', 'runtime', 'sagemaker', 'protocol'];

interface Manifest {
  name: string;
  workspaces?: string[];
  exports?: Record<string, string> | string;
  version: string;
  description: string;
  license: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Specifiers in built code: static imports and re-exports, import(), require(). */
const LOADS =
  /^(?:import|export)\b[^;'"]*?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;

const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

/** npm package name of a bare specifier ('@a/b/c' -> '@a/b'); null for Node's built-ins. */
function packageOf(spec: string): string | null {
  if (isBuiltin(spec) || spec.startsWith('.') || spec.startsWith('/')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * Where each of this repository's package specifiers points (its workspace's `exports`), for the
 * declaration bundler: tsup's own resolver reads no `exports`, TypeScript's `paths` it leaves alone.
 */
async function workspacePaths(): Promise<Record<string, string[]>> {
  const paths: Record<string, string[]> = {};
  for (const dir of (await readJson<Manifest>(join(ROOT, 'package.json'))).workspaces ?? []) {
    const m = await readJson<Manifest>(join(ROOT, dir, 'package.json'));
    const exports = typeof m.exports === 'string' ? { '.': m.exports } : (m.exports ?? {});
    for (const [sub, target] of Object.entries(exports)) paths[`${m.name}${sub.slice(1)}`] = [join(ROOT, dir, target)];
  }
  return paths;
}

/** Builds into `out` (default dist/package) and returns its folder and the tarball's path. */
export async function pack(out = join(HERE, 'dist/package')): Promise<{ folder: string; tarball: string }> {
  await rm(out, { recursive: true, force: true });
  // tsup keeps the dependencies of the package in its working folder out of the declarations; the
  // staging folder's stand-in manifest has none, so the workspaces' declarations are bundled too.
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'package.json'), '{ "private": true, "type": "module" }\n');
  const cwd = process.cwd();
  process.chdir(out);
  await build({
    entry: { index: join(HERE, 'src/index.ts') },
    outDir: join(out, 'dist'),
    format: ['esm', 'cjs'],
    target: 'node22',
    platform: 'node',
    tsconfig: join(HERE, 'tsconfig.json'),
    // Every package stays an import, but this repository's own (private) workspaces are bundled.
    external: [/^(?!@kokoro-speech\/)[^./]/],
    noExternal: [/^@kokoro-speech\//],
    dts: {
      resolve: [/^@kokoro-speech\//],
      compilerOptions: { composite: false, paths: await workspacePaths() },
    },
    // Rollup's tree-shaking, told that no package is imported for its side effects: the runtime's
    // response-stream transport (and its AWS SDK client), which the plugin never uses, drops out.
    treeshake: { moduleSideEffects: 'no-external' },
    sourcemap: true,
    silent: true,
  }).finally(() => process.chdir(cwd));
  const own = await readJson<Manifest>(join(HERE, 'package.json'));
  const pinned = new Map<string, string>();
  for (const ws of WORKSPACES) {
    const m = await readJson<Manifest>(join(ROOT, ws, 'package.json'));
    for (const [name, version] of Object.entries(m.dependencies ?? {}))
      if (!pinned.has(name)) pinned.set(name, version);
  }
  // What the built files load (and the declarations name: @smithy/types, for the credentials option).
  const imported = new Set<string>();
  for (const file of ['index.js', 'index.cjs', 'index.d.ts']) {
    const code = await readFile(join(out, 'dist', file), 'utf8');
    for (const m of code.matchAll(LOADS)) {
      const name = packageOf(m[1] ?? m[2] ?? m[3]!);
      if (name) imported.add(name);
    }
  }
  const peers = own.peerDependencies ?? {};
  const dependencies: Record<string, string> = {};
  for (const name of [...imported].sort()) {
    if (name in peers) continue;
    const version = pinned.get(name);
    if (!version) throw new Error(`the bundle imports ${name}, which no workspace it bundles depends on`);
    if (name.startsWith('@kokoro-speech/')) throw new Error(`${name} was not bundled`);
    dependencies[name] = version;
  }
  const manifest = {
    name: own.name,
    version: own.version,
    description: own.description,
    license: own.license,
    type: 'module',
    main: 'dist/index.cjs',
    module: 'dist/index.js',
    types: 'dist/index.d.ts',
    exports: {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    files: ['dist', 'README.md', 'LICENSE', 'NOTICE'],
    engines: { node: '>=22' },
    dependencies,
    peerDependencies: peers,
  };
  await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await copyFile(join(HERE, 'README.md'), join(out, 'README.md'));
  await copyFile(join(ROOT, 'LICENSE'), join(out, 'LICENSE'));
  await copyFile(join(ROOT, 'NOTICE'), join(out, 'NOTICE'));
  await mkdir(join(out, '..'), { recursive: true });
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', join(out, '..')], {
    cwd: out,
    encoding: 'utf8',
  }).trim();
  return { folder: out, tarball: join(out, '..', name.split('\n').at(-1)!) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { tarball } = await pack(process.argv[2]);
  console.log(tarball);
}
