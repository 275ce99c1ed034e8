// The repository's import graph, read from the sources as Node would load them: what files an
// entry point reaches (relative imports, workspace packages through their `exports`, dynamic
// imports, worker scripts), and which external packages each workspace's files import. Type-only
// imports are skipped: Node strips them, so they load nothing. Hand-written because the check is
// about this repository's own conventions (string literal specifiers, `.ts` extensions, npm
// workspaces), which a dozen lines of regular expressions cover exactly; a bundler would resolve
// through node_modules and hide the very arrows the tests look for.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

interface Manifest {
  name: string;
  workspaces?: string[];
  exports?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export function manifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
}

/** Workspace folder by package name (@kokoro-speech/runtime -> runtime). */
export const WORKSPACES: Map<string, string> = new Map(
  (manifest('.').workspaces ?? []).map((dir) => [manifest(dir).name, dir]),
);

/** The workspace folder a repository-relative file belongs to (folders may nest: integrations/livekit). */
export function workspaceOf(file: string): string {
  let found = file.split('/')[0]!;
  for (const dir of WORKSPACES.values()) if (file.startsWith(`${dir}/`) && dir.length > found.length) found = dir;
  return found;
}

export interface Specifier {
  spec: string;
  line: number;
}

const STATIC = /^\s*(?:import|export)\s+(?!type\s)(?:[^'"`;]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const WORKER = /new\s+Worker\(\s*new\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g;
const RESOLVED = /import\.meta\.resolve\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The runtime specifiers of one source file (static, dynamic, worker URLs, import.meta.resolve). */
export function specifiers(source: string): Specifier[] {
  const out: Specifier[] = [];
  for (const pattern of [STATIC, DYNAMIC, WORKER, RESOLVED]) {
    for (const m of source.matchAll(pattern)) {
      // `import { type A, type B } from` loads the module too (verbatimModuleSyntax keeps it).
      out.push({ spec: m[1]!, line: source.slice(0, m.index).split('\n').length });
    }
  }
  return out;
}

/** npm package name of a bare specifier ('@a/b/c' -> '@a/b', 'x/y' -> 'x'); null for node: builtins. */
export function packageName(spec: string): string | null {
  if (spec.startsWith('node:')) return null;
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Resolves a workspace package specifier through its `exports` to a repository-relative file. */
function resolveWorkspace(spec: string): string | null {
  const name = packageName(spec)!;
  const dir = WORKSPACES.get(name);
  if (!dir) return null;
  const subpath = `.${spec.slice(name.length)}`;
  const target = manifest(dir).exports?.[subpath];
  if (!target) throw new Error(`${spec}: ${name} exports no ${subpath}`);
  return join(dir, target);
}

export interface Reach {
  /** Repository-relative files loaded at run time. */
  files: Set<string>;
  /** External packages imported, with the files that import them. */
  external: Map<string, Set<string>>;
}

/** Everything an entry point loads when run (repository-relative paths). */
export function reach(entries: string[]): Reach {
  const files = new Set<string>();
  const external = new Map<string, Set<string>>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(ts|js|mjs)$/.test(file)) continue;
    for (const { spec } of specifiers(readFileSync(join(ROOT, file), 'utf8'))) {
      if (spec.startsWith('.')) {
        queue.push(relative(ROOT, resolve(ROOT, dirname(file), spec)));
      } else if (spec.startsWith('/')) {
        continue; // a URL path served to the browser, not a module of this process
      } else {
        const pkg = packageName(spec);
        if (pkg === null) continue;
        const local = resolveWorkspace(spec);
        if (local) queue.push(local);
        else external.set(pkg, (external.get(pkg) ?? new Set()).add(file));
      }
    }
  }
  return { files, external };
}

/** Every source file of a folder (repository-relative), tests and test helpers included or not. */
export function sources(dir: string, options: { tests: boolean }): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(join(ROOT, d))) {
      const path = join(d, name);
      if (name === 'node_modules') continue;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  if (existsSync(join(ROOT, dir))) walk(dir);
  return options.tests ? out : out.filter((f) => !isTestCode(f));
}

/** Tests, test helpers and benchmarks: code that never runs in a deployed process. */
export function isTestCode(file: string): boolean {
  return /\.(test|bench)\.ts$/.test(file) || /(^|\/)(testing|bench|scripts)\//.test(file);
}

/**
 * A Dockerfile's context allowlist (`*` then `!path` lines, then exclusions): whether a
 * repository-relative file is sent to the build.
 */
export function dockerContext(dockerignore: string): (file: string) => boolean {
  const lines = readFileSync(join(ROOT, dockerignore), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines[0] !== '*') throw new Error(`${dockerignore} must start with '*' (an allowlist)`);
  const glob = (pattern: string) =>
    new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '\0')
        .replace(/\*/g, '[^/]*')
        .replace(/\0/g, '(?:.*/)?')}${pattern.endsWith('/') ? '' : '(?:/|$)'}`,
    );
  const rules = lines.slice(1).map((l) => ({ allow: l.startsWith('!'), re: glob(l.replace(/^!/, '')) }));
  return (file) => {
    let included = false;
    for (const rule of rules) if (rule.re.test(file)) included = rule.allow;
    return included;
  };
}
