// gitops (the root project): Pulumi Deployments for the six layer stacks. Each redeploys on a
// push touching its own paths and previews pull requests; a webhook chains a successful update of
// one layer into a deployment of the next (foundation -> model-cache -> endpoint -> web ->
// agent-runtime -> site).
import * as pulumi from '@pulumi/pulumi';
import * as service from '@pulumi/pulumiservice';
import { deployOrder, layers } from './layers.ts';
import { preRunCommands, readSettings } from './settings.ts';

const { organization, layerStack, repository, branch, awsRoleArn, executorImage } = readSettings(new pulumi.Config(), {
  organization: pulumi.getOrganization(),
  stack: pulumi.getStack(),
});

const settings = new Map<string, service.DeploymentSettings>();
for (const layer of deployOrder(layers)) {
  // Settings need the layer stack to exist (`pulumi stack init` in its folder first, see stacks/README.md).
  // Reading it makes a missing one fail the preview ("unknown stack <org>/<project>/<stack>") before
  // any settings or webhook is created; 'organization' and 'layerStack' pick the name.
  const stack = new pulumi.StackReference(`${layer.key}-stack`, {
    name: `${organization}/${layer.project}/${layerStack}`,
  });
  const stackSettings = new service.DeploymentSettings(
    `${layer.key}-deployments`,
    {
      organization,
      project: layer.project,
      stack: layerStack,
      sourceContext: { git: { branch: `refs/heads/${branch}`, repoDir: layer.repoDir } },
      vcs: { provider: 'github', repository, deployCommits: true, previewPullRequests: true, paths: layer.paths },
      operationContext: {
        // Node 24, checked, then one clean install of the whole workspace tree at the root.
        preRunCommands,
        options: { skipInstallDependencies: true, skipIntermediateDeployments: true },
        oidc: { aws: { roleARN: awsRoleArn, sessionName: `pulumi-deployments-${layer.key}` } },
      },
      executorContext: { executorImage },
    },
    { dependsOn: [stack] },
  );
  settings.set(layer.key, stackSettings);

  if (layer.after !== undefined) {
    const upstream = layers.find((l) => l.key === layer.after)!;
    new service.Webhook(
      `${upstream.key}-to-${layer.key}`,
      {
        active: true,
        displayName: `deploy ${layer.key} after ${upstream.key}`,
        organizationName: organization,
        projectName: upstream.project,
        stackName: layerStack,
        format: service.WebhookFormat.PulumiDeployments,
        payloadUrl: `${layer.project}/${layerStack}`,
        filters: [service.WebhookFilters.UpdateSucceeded],
      },
      { dependsOn: [stackSettings, settings.get(upstream.key)!] },
    );
  }
}

export const deployedStacks = deployOrder(layers).map((l) => `${organization}/${l.project}/${layerStack}`);
