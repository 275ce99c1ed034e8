// The six layer stacks Pulumi Deployments manages: where each lives, which paths redeploy it,
// and which layer's successful update triggers it. Data (the site's paths read from the page's
// manifest) and checks, unit-tested directly.
import { readFileSync } from 'node:fs';
import { projectNames } from '../shared/index.ts';

export interface Layer {
  key: string;
  project: string;
  /** Folder of the layer's Pulumi.yaml, relative to the repository root. */
  repoDir: string;
  /** Pushes touching these paths redeploy the layer: its folder, the code it builds, what npm ci installs. */
  paths: string[];
  /** The layer whose successful update deploys this one (by webhook), if any. */
  after?: string;
}

/** Every layer runs `npm ci` at the repository root (preRunCommands): these decide what it installs. */
const install = ['package.json', 'package-lock.json'];
/**
 * What every stack program imports or installs beside its own folder: stacks/shared, and the two
 * files of the policy pack it imports (the pack is packed on its own, so shared reads from it).
 */
const stacks = [
  'stacks/shared/**',
  'stacks/policy/iam-documents.ts',
  'stacks/policy/other-policies.ts',
  'stacks/package.json',
];
/**
 * What the site layer uploads from the repository: the page's manifest and every file it lists
 * (those under node_modules/ change only with package-lock.json, which every layer watches).
 */
function pageSources(): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../local/page/manifest.json', import.meta.url), 'utf8'));
  const sources = Object.values(manifest.files as Record<string, string>);
  return ['local/page/manifest.json', ...new Set(sources.filter((path) => !path.startsWith('node_modules/')))];
}

/** Both Dockerfiles prune the root manifest to their own workspaces with this script before `npm ci`. */
const imageTools = ['tools/docker/**'];

export const layers: Layer[] = [
  {
    key: 'foundation',
    project: projectNames.foundation,
    repoDir: 'stacks/foundation',
    paths: ['stacks/foundation/**', ...stacks, ...install],
  },
  {
    // The sync Lambdas bundle the weights workspace.
    key: 'model-cache',
    project: projectNames.modelCache,
    repoDir: 'stacks/model-cache',
    paths: ['stacks/model-cache/**', 'weights/**', ...stacks, ...install],
    after: 'foundation',
  },
  {
    // The Kokoro image (container/Dockerfile): the server and the protocol it speaks, with their
    // manifests (the image installs only these two workspaces).
    key: 'endpoint',
    project: projectNames.endpoint,
    repoDir: 'stacks/endpoint',
    paths: [
      'stacks/endpoint/**',
      'container/**',
      'protocol/src/**',
      'protocol/package.json',
      ...imageTools,
      ...stacks,
      ...install,
    ],
    after: 'model-cache',
  },
  {
    // The page's bucket, distribution and user pool: nothing built, nothing read but the region.
    key: 'web',
    project: projectNames.web,
    repoDir: 'stacks/web',
    paths: ['stacks/web/**', ...stacks, ...install],
    after: 'endpoint',
  },
  {
    // The agent image (runtime/Dockerfile): the agent, the protocol, the SageMaker client. Not the
    // page or CLI (local/) nor the local SageMaker router (sagemaker/src/router/): neither ships.
    key: 'agent-runtime',
    project: projectNames.agentRuntime,
    repoDir: 'stacks/agent-runtime',
    paths: [
      'stacks/agent-runtime/**',
      'runtime/src/**',
      'runtime/package.json',
      'runtime/Dockerfile',
      'runtime/Dockerfile.dockerignore',
      'protocol/src/**',
      'protocol/package.json',
      'sagemaker/src/client/**',
      'sagemaker/package.json',
      ...imageTools,
      ...stacks,
      ...install,
    ],
    after: 'web',
  },
  {
    // The page's files and its config.json (the runtime's ARN): after the runtime.
    key: 'site',
    project: projectNames.site,
    repoDir: 'stacks/site',
    paths: ['stacks/site/**', ...pageSources(), ...stacks, ...install],
    after: 'agent-runtime',
  },
];

/**
 * Layers in deployment order (each after the one that triggers it). Throws on an unknown `after`
 * or a cycle, so the webhook graph can never loop.
 */
export function deployOrder(all: readonly Layer[]): Layer[] {
  const byKey = new Map(all.map((l) => [l.key, l]));
  const ordered: Layer[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (layer: Layer, path: string[]) => {
    if (state.get(layer.key) === 'done') return;
    if (state.get(layer.key) === 'visiting') throw new Error(`layer cycle: ${[...path, layer.key].join(' -> ')}`);
    state.set(layer.key, 'visiting');
    if (layer.after !== undefined) {
      const upstream = byKey.get(layer.after);
      if (upstream === undefined) throw new Error(`layer '${layer.key}' runs after unknown layer '${layer.after}'`);
      visit(upstream, [...path, layer.key]);
    }
    state.set(layer.key, 'done');
    ordered.push(layer);
  };
  for (const layer of all) visit(layer, []);
  return ordered;
}
