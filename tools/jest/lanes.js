// The test lanes. `npm test` runs every test file; `npm run test:unit`, the inner loop, leaves out
// the files that start a browser or a child process (a Node entry point, npm, a CLI tool): they
// are the slow ones, and the ones that need more than Node (Chromium, opusinfo, the npm cache).
// tools/jest/lanes.test.ts keeps this list equal to what the import graph says; docs/testing.md
// explains the lanes.

/** Browser tests, by name: `*.browser.test.ts` (Chromium through playwright-core). */
export const BROWSER_TEST = /\.browser\.test\.ts$/;

/** Test files (repository-relative) that start a child process, directly or through a helper. */
export const PROCESS_TESTS = [
  // Entry points run as users and hosts run them: signals, exit codes, logs.
  'container/src/main.test.ts',
  'runtime/src/main.test.ts',
  'sagemaker/src/router/main.test.ts',
  'sagemaker/src/smoke/main.test.ts',
  'protocol/src/server/shutdown.test.ts',
  'local/src/cli/say.test.ts',
  'local/src/cli/say-audio.test.ts',
  'local/src/stack/main.test.ts',
  'local/src/stack/start-and-say.test.ts',
  'local/src/stack/start-errors.test.ts',
  'local/src/trace/trace-run.test.ts',
  // The local stack starts its Kokoro containers as child processes.
  'local/src/agentcore/agentcore.test.ts',
  'local/src/stack/instances.test.ts',
  // A real container process killed and restarted, or traced across processes.
  'runtime/src/server/tts-restart.test.ts',
  'runtime/src/server/traces.test.ts',
  // Outside tools: opusinfo, npm, the packed LiveKit plugin under plain Node.
  'protocol/src/audio/ogg-opus.test.ts',
  'integrations/livekit/scripts/pack.test.ts',
  'tools/install/install-settings.test.ts',
  'tools/install/quiet-tests.test.ts',
  // Stacks: a Pulumi program, a dynamic provider or a bundled handler in a fresh process, a shell.
  'stacks/agent-runtime/index.test.ts',
  'stacks/gitops/deploy-role.test.ts',
  'stacks/gitops/settings.test.ts',
  'stacks/model-cache/bundle.test.ts',
  'stacks/model-cache/sync-execution.test.ts',
  'stacks/site/invalidation.test.ts',
];
