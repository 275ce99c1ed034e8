// One jest run over every workspace: native ESM (NODE_OPTIONS=--experimental-vm-modules),
// TypeScript through @swc/jest (type checking is `tsc --build`, run before jest by `npm test`).
import { TEST_PROJECTS } from './tools/jest/lanes.js';

const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
    module: { type: 'es6' },
  },
];

// Per project: an environment sharing more of the host realm than typed arrays (the file says
// why), and a build output jest must not read as modules (the package's own package.json).
const OVERRIDES = {
  'integrations/livekit': {
    testEnvironment: new URL('./integrations/livekit/src/testing/jest-environment.js', import.meta.url).pathname,
    modulePathIgnorePatterns: ['<rootDir>/dist/'],
  },
};

const project = (name) => ({
  displayName: name,
  rootDir: new URL(`./${name}`, import.meta.url).pathname,
  testEnvironment: new URL('./tools/jest/node-environment.js', import.meta.url).pathname,
  injectGlobals: false,
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  ...OVERRIDES[name],
});

export default {
  projects: TEST_PROJECTS.map(project),
  testTimeout: 30_000,
  // Each test file gets a fresh worker process: several files loading onnxruntime-node into one
  // process (jest gives each file its own vm realm) crashed natively now and then. The tiny limit
  // recycles every worker after every file; two workers match these 2-core machines.
  maxWorkers: 2,
  workerIdleMemoryLimit: '10MB',
};
