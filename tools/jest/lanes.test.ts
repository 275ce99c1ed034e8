// The unit lane leaves out exactly the tests that start a browser or a child process: the list in
// lanes.js is what the import graph says, so a new test that spawns cannot slip into the inner
// loop, and a test that stopped spawning is not left out for nothing.
import { expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT, WORKSPACES, manifest, packageName, reach, sources, specifiers } from '../architecture/import-graph.ts';
import { BROWSER_TEST, PROCESS_TESTS } from './lanes.js';

const WORKSPACE_FOLDERS = [
  'protocol',
  'sagemaker',
  'container',
  'runtime',
  'local',
  'weights',
  'stacks',
  'integrations',
  'tools',
];
const tests = WORKSPACE_FOLDERS.flatMap((dir) => sources(dir, { tests: true })).filter((f) => f.endsWith('.test.ts'));

const runtimeSpecifiers = (file: string): string[] =>
  specifiers(readFileSync(join(ROOT, file), 'utf8')).map(({ spec }) => spec);

/** A test file's imports of this repository's files; those that do not exist are code samples in strings. */
function ownImports(file: string): string[] {
  return runtimeSpecifiers(file).flatMap((spec) => {
    let target: string | undefined;
    if (spec.startsWith('.')) target = relative(ROOT, resolve(ROOT, dirname(file), spec));
    else {
      const name = packageName(spec);
      const dir = name === null ? undefined : WORKSPACES.get(name);
      const exported = dir && manifest(dir).exports?.[`.${spec.slice(name!.length)}`];
      if (exported) target = join(dir, exported);
    }
    return target && existsSync(join(ROOT, target)) ? [target] : [];
  });
}

/** Whether a test file, or any file of this repository it loads, loads a module matching `module`. */
function loads(file: string, module: RegExp): boolean {
  if (runtimeSpecifiers(file).some((spec) => module.test(spec))) return true;
  const { files, external } = reach(ownImports(file));
  if ([...external.keys()].some((pkg) => module.test(pkg))) return true;
  return [...files]
    .filter((f) => /\.(ts|js|mjs)$/.test(f))
    .some((f) => runtimeSpecifiers(f).some((spec) => module.test(spec)));
}

test('there are tests in both lanes', () => {
  expect(tests.length).toBeGreaterThan(100);
  expect(PROCESS_TESTS.length).toBeGreaterThan(0);
  expect(tests.filter((f) => BROWSER_TEST.test(f)).length).toBeGreaterThan(0);
});

test('every test that drives a browser is named *.browser.test.ts', () => {
  const browsers = tests.filter((f) => loads(f, /^playwright(-core)?$/));
  expect(browsers.filter((f) => !BROWSER_TEST.test(f))).toEqual([]);
  expect(tests.filter((f) => BROWSER_TEST.test(f) && !browsers.includes(f))).toEqual([]);
});

test('the process tests are exactly the other tests that load node:child_process', () => {
  const spawning = tests.filter((f) => !BROWSER_TEST.test(f) && loads(f, /^(node:)?child_process$/));
  expect([...PROCESS_TESTS].sort()).toEqual(spawning.sort());
});
