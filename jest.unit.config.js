// `npm run test:unit`: the inner loop. The same projects as jest.config.js without the tests that
// start a browser or a child process (tools/jest/lanes.js says which, docs/testing.md why).
import { fileURLToPath } from 'node:url';
import base from './jest.config.js';
import { BROWSER_TEST, PROCESS_TESTS } from './tools/jest/lanes.js';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OUTSIDE = [BROWSER_TEST.source, ...PROCESS_TESTS.map((file) => `^${escape(ROOT + file)}$`)];

export default {
  ...base,
  projects: base.projects.map((project) => ({
    ...project,
    testPathIgnorePatterns: [...project.testPathIgnorePatterns, ...OUTSIDE],
  })),
};
