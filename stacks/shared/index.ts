// Naming, tagging and config helpers shared by every Pulumi project under stacks/.
//
// Stable API (other projects import this file relatively: `../shared/index.ts`):
//   projectNames                       the Pulumi project name of each layer
//   resourceName(suffix)               `<app>-<stack>-<suffix>`, lower-case, for logical/physical names
//   defaultTags(extra?)                tags every taggable AWS resource carries
//   stackRefName(value, project, org, stack)  pure: 'stack' | 'project/stack' | 'org/project/stack' -> full name
//   stackRef(configKey, project)       StackReference named by config key (default: same stack name,
//                                      current organization)
//   intSetting(config, key, default, {min, max})  integer config with a clear error when out of range
//   numberSetting(config, key, default, {min, max})  the same for any number (shares, ratios)
//   retentionDaysSetting(config, key, default)  a log retention CloudWatch Logs accepts (LOG_RETENTION_DAYS)
//   requireProducerOutput(ref, output, hint)  an output of a producer stack, read before any resource
//   requireFoundationRegion(foundation, region)  the layer's region, refused unless it is foundation's
//   Output name lists: see ./outputs.ts (re-exported here).
// Beside it: ./iam.ts (policy document types, AWS scope and ARN builders, serviceTrustPolicy) and
// ./service-role.ts (ServiceRole: one service's role and its inline policy), imported directly.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

import { LOG_RETENTION_DAYS } from '../policy/other-policies.ts';

export * from './outputs.ts';

/** Application name, used in tags and as the first part of every resource name. */
export const appName = 'kokoro';

/** The Pulumi project name of each layer (each folder's Pulumi.yaml `name`). */
export const projectNames = {
  foundation: 'kokoro-foundation',
  modelCache: 'kokoro-model-cache',
  endpoint: 'kokoro-endpoint',
  web: 'kokoro-web',
  agentRuntime: 'kokoro-agent-runtime',
  site: 'kokoro-site',
  gitops: 'kokoro-gitops',
} as const;

export type Tags = Record<string, string>;

/** Lower-case letters, digits and dashes only; collapses runs of anything else into one dash. */
export function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * `kokoro-<stack>-<suffix>`. The stack part is cut to 12 characters so that Pulumi's 8-character
 * random suffix still fits AWS's shortest name limits (SageMaker and IAM names, 63-64 characters).
 */
export function resourceName(suffix: string): string {
  const stack = slug(pulumi.getStack()).slice(0, 12).replace(/-+$/, '');
  const tail = slug(suffix);
  if (tail === '') throw new Error(`resourceName: suffix '${suffix}' has no letters or digits`);
  return `${appName}-${stack}-${tail}`;
}

/** Tags on every taggable resource: app, Pulumi project/stack and the manager. */
export function defaultTags(extra: Tags = {}): Tags {
  return {
    app: appName,
    'pulumi-project': pulumi.getProject(),
    'pulumi-stack': pulumi.getStack(),
    'managed-by': 'pulumi',
    ...extra,
  };
}

/**
 * Full `org/project/stack` name from a config value that may give one, two or three parts.
 * Missing parts default to the given project, the current organization and the current stack.
 */
export function stackRefName(value: string | undefined, project: string, org: string, stack: string): string {
  const parts = (value ?? '').split('/').filter((part) => part !== '');
  if (parts.length > 3 || (value !== undefined && value !== '' && parts.length === 0)) {
    throw new Error(`stack reference '${value}' must be 'stack', 'project/stack' or 'org/project/stack'`);
  }
  if (parts.length === 3) return parts.join('/');
  if (parts.length === 2) return [org, ...parts].join('/');
  return [org, project, parts[0] ?? stack].join('/');
}

/** A StackReference whose name comes from config `key` (see stackRefName for the defaults). */
export function stackRef(key: string, project: string): pulumi.StackReference {
  const value = new pulumi.Config().get(key);
  const name = stackRefName(value, project, pulumi.getOrganization(), pulumi.getStack());
  return new pulumi.StackReference(key, { name });
}

/** An integer config value within [min, max], or the default when unset. */
export function intSetting(
  config: pulumi.Config,
  key: string,
  fallback: number,
  range: { min: number; max: number },
): number {
  return numberSetting(config, key, fallback, range, 'integer');
}

/** A number (or, with `kind` integer, a whole number) config value within [min, max], or the default when unset. */
export function numberSetting(
  config: pulumi.Config,
  key: string,
  fallback: number,
  range: { min: number; max: number },
  kind: 'number' | 'integer' = 'number',
): number {
  const value = config.getNumber(key) ?? fallback;
  const ok = kind === 'integer' ? Number.isInteger(value) : Number.isFinite(value);
  if (!ok || value < range.min || value > range.max) {
    const what = kind === 'integer' ? 'an integer' : 'a number';
    throw new Error(`config '${config.name}:${key}' must be ${what} in [${range.min}, ${range.max}], got ${value}`);
  }
  return value;
}

export { LOG_RETENTION_DAYS };

/** A log retention in days that CloudWatch Logs accepts, or the default when unset. */
export function retentionDaysSetting(config: pulumi.Config, key: string, fallback: number): number {
  const value = config.getNumber(key) ?? fallback;
  if (!(LOG_RETENTION_DAYS as readonly number[]).includes(value)) {
    throw new Error(
      `config '${config.name}:${key}' must be a retention CloudWatch Logs accepts (${LOG_RETENTION_DAYS.join(', ')} days), got ${value}`,
    );
  }
  return value;
}

const nameOf = (ref: pulumi.StackReference) => new Promise<string>((resolve) => ref.name.apply(resolve));

/**
 * An output of a producer stack, as a plain value (await it at the top of a program, so a check on it
 * fails the preview before any resource is declared). A stack deployed before the output existed
 * gets an error saying which layer to update first.
 */
export async function requireProducerOutput(
  ref: pulumi.StackReference,
  output: string,
  layer: string,
): Promise<unknown> {
  const value = await ref.getOutputValue(output);
  if (value === undefined) {
    throw new Error(
      `stack ${await nameOf(ref)} exports no '${output}': run \`pulumi up\` in ${layer} first (this version of it exports it)`,
    );
  }
  return value;
}

/** Throws unless the layer deploys in the foundation's region; the message names the config keys. */
export function checkSameRegion(layerRegion: string, foundationRegion: string, foundationStack: string): string {
  if (layerRegion !== foundationRegion) {
    throw new Error(
      `config 'aws:region' is ${layerRegion}, but the foundation stack ${foundationStack} is in ${foundationRegion}: ` +
        `deploy every layer in the foundation's region (pulumi config set aws:region ${foundationRegion}), ` +
        `or point 'foundationStack' at a foundation in ${layerRegion}`,
    );
  }
  return layerRegion;
}

/**
 * This layer's region (its AWS provider's), refused unless it is the foundation's: the bucket, key,
 * repositories and roles a layer uses all live there. Await it at the top of a layer program.
 */
export async function requireFoundationRegion(foundation: pulumi.StackReference): Promise<string> {
  const [foundationRegion, { region }, name] = await Promise.all([
    requireProducerOutput(foundation, 'region', 'stacks/foundation'),
    aws.getRegion(),
    nameOf(foundation),
  ]);
  return checkSameRegion(region, String(foundationRegion), name);
}
