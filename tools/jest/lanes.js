// The test lanes. `npm test` runs every test file; `npm run test:unit`, the inner loop, leaves out
// the files that start a browser, a child process (a Node entry point, npm, a CLI tool) or the
// Kokoro model (onnxruntime: the real engine on the stand-in model, Silero VAD): they are the slow
// ones, and the ones that need more than Node (Chromium, opusinfo, the npm cache). Which files
// those are is read from the import graph when the unit lane starts, so no list can go stale;
// docs/testing.md explains the lanes, lanes.test.ts pins the rule on known files.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The folders jest runs as projects (jest.config.js), one per workspace. */
export const TEST_PROJECTS = [
  'protocol',
  'sagemaker',
  'container',
  'runtime',
  'local',
  'weights',
  'stacks',
  'integrations/livekit',
  'tools',
];

/** Browser tests, by name: `*.browser.test.ts` (Chromium through playwright-core). */
export const BROWSER_TEST = /\.browser\.test\.ts$/;

/** What a test must not load, itself or through any file of the repository, to stay in the unit lane. */
export const HEAVY_MODULES = {
  process: /^(node:)?child_process$/,
  model: /^(kokoro-js|onnxruntime-node|onnxruntime-common|@huggingface\/transformers)$/,
  browser: /^playwright(-core)?$/,
};

/** Every test file of the projects (repository-relative), with what heavy modules it loads. */
export async function testFiles() {
  // Loaded here, not at the top: jest.config.js reads this file too and needs none of it.
  const graph = await import('../architecture/import-graph.ts');
  const specifiersOf = (file) => graph.specifiers(readFileSync(join(graph.ROOT, file), 'utf8')).map((s) => s.spec);
  /** A test file's imports of this repository's files; those that do not exist are code samples in strings. */
  const ownImports = (file) =>
    specifiersOf(file).flatMap((spec) => {
      let target;
      if (spec.startsWith('.')) target = relative(graph.ROOT, resolve(graph.ROOT, dirname(file), spec));
      else {
        const name = graph.packageName(spec);
        const dir = name === null ? undefined : graph.WORKSPACES.get(name);
        const exported = dir && graph.manifest(dir).exports?.[`.${spec.slice(name.length)}`];
        if (exported) target = join(dir, exported);
      }
      return target && existsSync(join(graph.ROOT, target)) ? [target] : [];
    });
  return TEST_PROJECTS.flatMap((dir) => graph.sources(dir, { tests: true }))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => {
      const { files, external } = graph.reach(ownImports(file));
      const specs = [
        ...specifiersOf(file),
        ...external.keys(),
        ...[...files].filter((f) => /\.(ts|js|mjs)$/.test(f)).flatMap(specifiersOf),
      ];
      const loads = Object.keys(HEAVY_MODULES).filter((kind) => specs.some((spec) => HEAVY_MODULES[kind].test(spec)));
      return { file, loads };
    });
}

/** The test files `npm run test:unit` leaves out: by name the browser tests, and any that loads a heavy module. */
export async function leftOutOfUnitLane() {
  return (await testFiles())
    .filter(({ file, loads }) => BROWSER_TEST.test(file) || loads.length > 0)
    .map((t) => t.file);
}
