// gitops under Pulumi mocks: one DeploymentSettings per layer with its own path filters, OIDC and
// npm ci, and webhooks that chain the layers in order without a cycle.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { organization, runProgram, type ProgramRun } from '../testing/mocks.ts';
import { deployOrder, layers, type Layer } from './layers.ts';
import { preRunCommands } from './settings.ts';

const roleArn = 'arn:aws:iam::111122223333:role/deployer';
/** The layer projects, in the order they deploy. */
const inDeployOrder = [
  'kokoro-foundation',
  'kokoro-model-cache',
  'kokoro-endpoint',
  'kokoro-web',
  'kokoro-agent-runtime',
  'kokoro-site',
];
let run: ProgramRun;

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-gitops',
    config: { 'kokoro-gitops:repository': 'acme/kokoro-speech', 'kokoro-gitops:awsRoleArn': roleArn },
    // The layer stacks exist (freshly initialised: no outputs yet).
    stackOutputs: Object.fromEntries(inDeployOrder.map((p) => [`${organization}/${p}/dev`, {}])),
  });
});

test('exports the managed stacks in deploy order', () => {
  expect(run.outputs.deployedStacks).toEqual(inDeployOrder.map((p) => `${organization}/${p}/dev`));
});

describe('deployment settings', () => {
  test('each layer deploys from its folder on push and previews pull requests, filtered to its paths', () => {
    // In deploy order (the engine may register them in another).
    const order = deployOrder(layers).map((l) => l.project);
    const settings = run
      .all('pulumiservice:index:DeploymentSettings')
      .map((r) => r.inputs)
      .sort((a, b) => order.indexOf(a.project) - order.indexOf(b.project));
    // What each glob matches is layers.test.ts's concern; here, that every layer's filters reach Pulumi.
    expect(settings.map((s) => [s.project, s.sourceContext.git.repoDir, s.vcs.paths])).toEqual(
      deployOrder(layers).map((l) => [l.project, l.repoDir, l.paths]),
    );
    for (const s of settings) {
      expect(s).toMatchObject({ organization, stack: 'dev', sourceContext: { git: { branch: 'refs/heads/main' } } });
      expect(s.vcs).toMatchObject({
        provider: 'github',
        repository: 'acme/kokoro-speech',
        deployCommits: true,
        previewPullRequests: true,
      });
    }
  });

  test('each selects Node 24, runs npm ci first and reaches AWS by OIDC with the configured role', () => {
    for (const s of run.all('pulumiservice:index:DeploymentSettings').map((r) => r.inputs)) {
      expect(s.operationContext.preRunCommands).toEqual(preRunCommands);
      expect(s.operationContext.preRunCommands.at(-1)).toBe(
        'cd "$(git rev-parse --show-toplevel)" && npm ci --no-audit --no-fund',
      );
      expect(s.operationContext.options).toEqual({ skipInstallDependencies: true, skipIntermediateDeployments: true });
      expect(s.operationContext.oidc.aws.roleARN).toBe(roleArn);
      expect(s.executorContext).toEqual({ executorImage: 'pulumi/pulumi:3.276.0' });
    }
  });
});

test('each layer stack is read before its settings are created, so a missing stack fails the preview first', () => {
  const settings = run.all('pulumiservice:index:DeploymentSettings');
  expect(settings).toHaveLength(6);
  for (const s of settings) {
    const key = s.name.replace(/-deployments$/, '');
    const stack = run.find('pulumi:pulumi:StackReference', `${key}-stack`);
    expect(stack.inputs.name).toBe(`${organization}/${s.inputs.project}/dev`);
    expect(s.dependencies).toContain(`urn:pulumi:dev::kokoro-gitops::pulumi:pulumi:StackReference::${key}-stack`);
  }
});

test('webhooks deploy the next layer after a successful update, in order', () => {
  const hooks = run.all('pulumiservice:index:Webhook').map((r) => r.inputs);
  expect(hooks.map((h) => [h.projectName, h.payloadUrl])).toEqual([
    ['kokoro-foundation', 'kokoro-model-cache/dev'],
    ['kokoro-model-cache', 'kokoro-endpoint/dev'],
    ['kokoro-endpoint', 'kokoro-web/dev'],
    ['kokoro-web', 'kokoro-agent-runtime/dev'],
    ['kokoro-agent-runtime', 'kokoro-site/dev'],
  ]);
  for (const h of hooks) {
    expect(h).toMatchObject({
      active: true,
      organizationName: organization,
      stackName: 'dev',
      format: 'pulumi_deployments',
      filters: ['update_succeeded'],
    });
  }
});

describe('deployOrder', () => {
  const layer = (key: string, after?: string): Layer => ({
    key,
    project: key,
    repoDir: key,
    paths: [],
    ...(after ? { after } : {}),
  });

  test('puts every layer after its trigger whatever the listing order', () => {
    expect(deployOrder([layer('c', 'b'), layer('b', 'a'), layer('a')]).map((l) => l.key)).toEqual(['a', 'b', 'c']);
    expect(deployOrder(layers).map((l) => l.key)).toEqual([
      'foundation',
      'model-cache',
      'endpoint',
      'web',
      'agent-runtime',
      'site',
    ]);
  });

  test('refuses cycles and unknown triggers', () => {
    expect(() => deployOrder([layer('a', 'b'), layer('b', 'a')])).toThrow('layer cycle: a -> b -> a');
    expect(() => deployOrder([layer('a', 'zz')])).toThrow("layer 'a' runs after unknown layer 'zz'");
  });
});
