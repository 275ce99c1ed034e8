// The model-cache stack's settings: read once from config with defaults (the pinned Kokoro ONNX
// export) and checked early, with errors naming the config key.
import { KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, KOKORO_SYNC_INCLUDES } from '@kokoro-speech/weights/kokoro';
import { LOG_RETENTION_DAYS } from '../policy/other-policies.ts';

export interface ModelCacheSettings {
  repo: string;
  revision: string;
  include: string[];
  syncOnUp: boolean;
  maxConcurrency: number;
  partSizeMiB: number;
  logRetentionDays: number;
  hfEndpoint?: string;
  hfTokenSecretArn?: string;
  /** A token given as secret config; the stack stores it in a secret of its own. */
  hasHfToken: boolean;
}

/** What `pulumi.Config` offers, so the checks can be tested without an engine. */
export interface ConfigSource {
  get(key: string): string | undefined;
  getBoolean(key: string): boolean | undefined;
  getNumber(key: string): number | undefined;
  getObject<T>(key: string): T | undefined;
}

function integer(config: ConfigSource, key: string, fallback: number, min: number, max: number): number {
  const value = config.getNumber(key) ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`config '${key}' must be an integer in [${min}, ${max}], got ${value}`);
  return value;
}

export function readSettings(config: ConfigSource, hasHfToken: boolean): ModelCacheSettings {
  const repo = config.get('repo') ?? KOKORO_ONNX_REPO;
  const revision = config.get('revision') ?? KOKORO_ONNX_REVISION;
  const include = config.getObject<unknown>('include') ?? [...KOKORO_SYNC_INCLUDES];
  const hfTokenSecretArn = config.get('hfTokenSecretArn');
  const hfEndpoint = config.get('hfEndpoint');
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(repo))
    throw new Error(`config 'repo' must look like "owner/name", got '${repo}'`);
  if (!/^[0-9a-f]{40}$/.test(revision)) {
    throw new Error(
      `config 'revision' must be a full 40-character commit (pin a commit, never a branch), got '${revision}'`,
    );
  }
  if (!Array.isArray(include) || include.length === 0 || !include.every((p) => typeof p === 'string' && p !== '')) {
    throw new Error(`config 'include' must be a non-empty list of glob patterns, got ${JSON.stringify(include)}`);
  }
  if (hfTokenSecretArn !== undefined && hasHfToken)
    throw new Error(`config 'hfToken' and 'hfTokenSecretArn' are exclusive: set one`);
  if (hfTokenSecretArn !== undefined && !/^arn:aws[\w-]*:secretsmanager:/.test(hfTokenSecretArn)) {
    throw new Error(`config 'hfTokenSecretArn' must be a Secrets Manager secret ARN, got '${hfTokenSecretArn}'`);
  }
  if (hfEndpoint !== undefined && !/^https:\/\//.test(hfEndpoint))
    throw new Error(`config 'hfEndpoint' must be an https URL, got '${hfEndpoint}'`);
  return {
    repo,
    revision,
    include: include as string[],
    syncOnUp: config.getBoolean('syncOnUp') ?? true,
    maxConcurrency: integer(config, 'maxConcurrency', 8, 1, 40),
    partSizeMiB: integer(config, 'partSizeMiB', 16, 5, 512),
    logRetentionDays: retentionDays(config.getNumber('logRetentionDays') ?? 30),
    hfEndpoint,
    hfTokenSecretArn,
    hasHfToken,
  };
}

/** `logRetentionDays`: one of the retentions CloudWatch Logs accepts (the policy pack refuses others). */
function retentionDays(value: number): number {
  if (!(LOG_RETENTION_DAYS as readonly number[]).includes(value)) {
    throw new Error(
      `config 'logRetentionDays' must be a retention CloudWatch Logs accepts (${LOG_RETENTION_DAYS.join(', ')} days), got ${value}`,
    );
  }
  return value;
}
