// `npm run test:unit`: the inner loop. The same projects as jest.config.js without the tests that
// start a browser, a child process or the Kokoro model (tools/jest/lanes.js says which, docs/testing.md why).
import { fileURLToPath } from 'node:url';
import base from './jest.config.js';
import { leftOutOfUnitLane } from './tools/jest/lanes.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Workers are kept from file to file: the recycling jest.config.js asks for guards against
// onnxruntime, which no test of this lane loads.
export default async () => {
  const outside = (await leftOutOfUnitLane()).map((file) => `^${escape(ROOT + file)}$`);
  const { workerIdleMemoryLimit, ...rest } = base;
  return {
    ...rest,
    projects: base.projects.map((project) => ({
      ...project,
      testPathIgnorePatterns: [...project.testPathIgnorePatterns, ...outside],
    })),
  };
};
