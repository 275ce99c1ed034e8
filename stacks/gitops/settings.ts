// The gitops stack's settings, read once and checked early with errors naming the config key:
// required values must be set, and the example values of a copied stack file are refused.

/** What `pulumi.Config` offers, so the checks can be tested without an engine. */
export interface ConfigSource {
  get(key: string): string | undefined;
}

export interface GitopsSettings {
  organization: string;
  layerStack: string;
  repository: string;
  branch: string;
  awsRoleArn: string;
  executorImage: string;
}

/**
 * Pulumi's own image (docker for the image builds, Node 22, 24 and 26 under fnm), at the CLI
 * version of the @pulumi/pulumi SDK in stacks/package.json; preRunCommands select Node 24 in it.
 */
export const DEFAULT_EXECUTOR_IMAGE = 'pulumi/pulumi:3.276.0';

/** Shell steps before each deployment: Node 24 on PATH, checked, then one clean install at the root. */
export const preRunCommands = [
  // Pulumi's image keeps several Node versions under fnm, 26 being its default: select 24 (package.json engines).
  'if command -v fnm >/dev/null; then fnm install 24 && fnm alias 24 default; fi',
  `node -e "process.exit(process.versions.node.split('.')[0] === '24' ? 0 : 1)" || ` +
    `{ echo "config 'executorImage' must provide Node 24, found $(node --version)" >&2; exit 1; }`,
  // One clean install of the whole workspace tree (the programs import sibling workspaces).
  'cd "$(git rev-parse --show-toplevel)" && npm ci --no-audit --no-fund',
];

/** Example values (AWS's documentation account, "your-..." names) that must never reach a deployment. */
function placeholder(value: string): boolean {
  return /\byour-|<[^>]*>|\b123456789012\b|example/i.test(value);
}

function required(config: ConfigSource, key: string, how: string): string {
  const value = config.get(key);
  if (value === undefined || value.trim() === '') {
    throw new Error(`config 'kokoro-gitops:${key}' is required: pulumi config set ${key} ${how}`);
  }
  if (placeholder(value)) {
    throw new Error(
      `config 'kokoro-gitops:${key}' is still an example value ('${value}'): pulumi config set ${key} ${how}`,
    );
  }
  return value;
}

export function readSettings(config: ConfigSource, defaults: { organization: string; stack: string }): GitopsSettings {
  const repository = required(config, 'repository', '<owner>/<repository>');
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new Error(`config 'kokoro-gitops:repository' must be 'owner/name', got '${repository}'`);
  }
  const awsRoleArn = required(config, 'awsRoleArn', '<deploy role ARN> (see stacks/README.md, GitOps)');
  if (!/^arn:aws[\w-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/.test(awsRoleArn)) {
    throw new Error(`config 'kokoro-gitops:awsRoleArn' must be an IAM role ARN, got '${awsRoleArn}'`);
  }
  const executorImage = config.get('executorImage') ?? DEFAULT_EXECUTOR_IMAGE;
  if (!/^[\w.-]+(:\d+)?(\/[\w.-]+)*(:[\w.-]+)?(@sha256:[0-9a-f]{64})?$/.test(executorImage)) {
    throw new Error(`config 'kokoro-gitops:executorImage' must be an image reference, got '${executorImage}'`);
  }
  return {
    organization: config.get('organization') ?? defaults.organization,
    layerStack: config.get('layerStack') ?? defaults.stack,
    repository,
    branch: config.get('branch') ?? 'main',
    awsRoleArn,
    executorImage,
  };
}
