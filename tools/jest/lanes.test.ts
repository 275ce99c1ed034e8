// The unit lane's rule on known files: what starts a browser, a child process (itself or through a
// helper) or the Kokoro model is left out, and nothing else. The rule reads the import graph, so a
// new test that spawns cannot slip into the inner loop.
import { beforeAll, expect, test } from '@jest/globals';
import { BROWSER_TEST, leftOutOfUnitLane, testFiles, type HeavyModule } from './lanes.js';

let files: Awaited<ReturnType<typeof testFiles>>;
let leftOut: string[];
beforeAll(async () => {
  files = await testFiles();
  leftOut = await leftOutOfUnitLane();
});
const loads = (file: string): HeavyModule[] => {
  const found = files.find((f) => f.file === file);
  if (!found) throw new Error(`no test file ${file}`);
  return found.loads;
};

test('there are tests in both lanes, most of them in the unit lane', () => {
  expect(files.length).toBeGreaterThan(200);
  expect(leftOut.length).toBeGreaterThan(30);
  expect(leftOut.length).toBeLessThan(files.length / 2);
});

test('a test that spawns, itself or through a helper, is out', () => {
  expect(loads('container/src/main.test.ts')).toContain('process'); // spawns the entry point
  expect(loads('local/src/stack/instances.test.ts')).toContain('process'); // through the local stack
  expect(loads('stacks/model-cache/bundle.test.ts')).toContain('process');
});

test('a test that loads the model, itself or through the container or the agent, is out', () => {
  expect(loads('container/src/engine/kokoro-engine.test.ts')).toEqual(['model']);
  expect(loads('container/src/server/drop-in.test.ts')).toEqual(['model']);
  expect(loads('runtime/src/tts/real-container.test.ts')).toEqual(['model']);
});

test('what needs none of them stays in', () => {
  for (const file of [
    'runtime/src/text/segmenter.test.ts',
    'runtime/src/tts/websocket-transport.test.ts', // the fake protocol-v1 peer, no model
    'sagemaker/src/router/router.test.ts',
    'stacks/foundation/index.test.ts',
    'tools/jest/lanes.test.ts',
  ]) {
    expect([file, loads(file)]).toEqual([file, []]);
    expect(leftOut).not.toContain(file);
  }
});

test('every test that drives a browser is named *.browser.test.ts, and every one so named does', () => {
  const browsers = files.filter((f) => f.loads.includes('browser')).map((f) => f.file);
  expect(browsers.filter((f) => !BROWSER_TEST.test(f))).toEqual([]);
  expect(files.filter((f) => BROWSER_TEST.test(f.file) && !browsers.includes(f.file))).toEqual([]);
  for (const file of browsers) expect(leftOut).toContain(file);
});
