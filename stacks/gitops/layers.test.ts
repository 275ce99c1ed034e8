// Which layers a push redeploys, file by file, under the repository layout: protocol/, container/,
// sagemaker/ (client for the agent, router for local tooling), runtime/ (the agent only), local/
// (the CLI, never deployed; the page's files, which the site layer uploads), weights/, stacks/. Each image installs only its own workspaces
// (tools/docker/keep-workspaces.mjs), so only their manifests redeploy it. Path filters are matched as globs, as Pulumi
// Deployments matches them against the files a commit changes.
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { layers } from './layers.ts';

const redeployed = (file: string) =>
  layers.filter((layer) => layer.paths.some((glob) => posix.matchesGlob(file, glob))).map((layer) => layer.key);

const all = ['foundation', 'model-cache', 'endpoint', 'web', 'agent-runtime', 'site'];

describe('a change to', () => {
  test.each([
    ['package-lock.json', all],
    ['package.json', all],
    ['stacks/package.json', all],
    ['stacks/shared/iam.ts', all],
    ['stacks/policy/other-policies.ts', all],
    ['stacks/policy/iam-documents.ts', all],
    ['stacks/policy/web-policies.ts', []],
    ['stacks/foundation/index.ts', ['foundation']],
    ['stacks/model-cache/handlers/copy.ts', ['model-cache']],
    ['weights/src/sync.ts', ['model-cache']],
    ['weights/package.json', ['model-cache']],
    ['container/src/server/app.ts', ['endpoint']],
    ['container/Dockerfile', ['endpoint']],
    ['container/package.json', ['endpoint']],
    ['protocol/src/v1.ts', ['endpoint', 'agent-runtime']],
    ['protocol/src/heard-cut.js', ['endpoint', 'agent-runtime', 'site']],
    ['protocol/src/audio/opus-framing.js', ['endpoint', 'agent-runtime', 'site']],
    ['protocol/package.json', ['endpoint', 'agent-runtime']],
    ['protocol/README.md', []],
    ['runtime/src/server/main.ts', ['agent-runtime']],
    ['runtime/package.json', ['agent-runtime']],
    ['runtime/Dockerfile', ['agent-runtime']],
    ['runtime/Dockerfile.dockerignore', ['agent-runtime']],
    ['runtime/README.md', []],
    ['sagemaker/src/client/bidi-client.ts', ['agent-runtime']],
    ['sagemaker/src/router/router.ts', []],
    ['sagemaker/package.json', ['agent-runtime']],
    ['local/page/index.html', ['site']],
    ['local/page/audio-worklet.js', ['site']],
    ['local/page/manifest.json', ['site']],
    ['local/page/page.browser.test.ts', []],
    ['stacks/web/index.ts', ['web']],
    ['stacks/site/page-files.ts', ['site']],
    ['local/src/cli/say.ts', []],
    ['local/package.json', []],
    ['tools/docker/keep-workspaces.mjs', ['endpoint', 'agent-runtime']],
    ['tools/architecture/import-graph.ts', []],
    ['README.md', []],
    ['docs/architecture.md', []],
  ])('%s redeploys %j', (file, expected) => {
    expect(redeployed(file)).toEqual(expected);
  });
});

test('a change to any file of the page (its manifest says which) redeploys the site', () => {
  const manifest = JSON.parse(readFileSync(new URL('../../local/page/manifest.json', import.meta.url), 'utf8'));
  const files = Object.values(manifest.files as Record<string, string>).filter((p) => !p.startsWith('node_modules/'));
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) expect([file, redeployed(file)]).toEqual([file, expect.arrayContaining(['site'])]);
});

test('every layer watches what its npm ci installs from, and its own folder', () => {
  for (const layer of layers) {
    expect(layer.paths).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', `${layer.repoDir}/**`]));
  }
});
