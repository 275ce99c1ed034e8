// What the sync Lambdas read from their environment and input: their variables (one schema, through
// the project's env parsers: a bad one fails the step with InvalidSyncInput naming it), the Hugging
// Face client (HF_ENDPOINT, token from HF_TOKEN or a Secrets Manager secret), the S3 client
// (standard AWS settings), and the zod schemas of each step's input. Read per invocation so tests
// can point them at stand-ins.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { HubClient, WeightsError, s3ClientFromEnv } from '@kokoro-speech/weights';
import type { S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { ConfigError, envInt, optional, parseEnv } from '@kokoro-speech/protocol/env';

let cachedToken: { arn: string; token: string } | undefined;
let cachedS3: S3Client | undefined;

const includeList = z.string().transform((text, ctx): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array of file patterns' });
    return z.NEVER;
  }
});

/** The variables the stack sets on the sync Lambdas (weight-sync.ts). */
const syncEnv = z.object({
  HF_ENDPOINT: optional(z.string()),
  HF_TOKEN: optional(z.string()),
  HF_TOKEN_SECRET_ARN: optional(z.string()),
  DEFAULT_REPO: optional(z.string()),
  DEFAULT_REVISION: optional(z.string()),
  DEFAULT_INCLUDE: optional(
    includeList.pipe(z.array(z.string().min(1), { error: 'must be a JSON array of file patterns' })),
  ),
  BUCKET: optional(z.string()),
  PREFIX: optional(z.string()),
  // S3's multipart part size: 5 MiB to 5 GiB (Amazon S3 multipart upload limits).
  PART_SIZE_MIB: optional(envInt(5, 5 * 1024)),
});
export type SyncEnv = z.output<typeof syncEnv>;

/** The sync Lambdas' variables; a bad one fails the step (InvalidSyncInput, not retried) naming it. */
export function syncSettings(env: Record<string, string | undefined> = process.env): SyncEnv {
  try {
    return parseEnv(syncEnv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new WeightsError('InvalidSyncInput', `the Lambda's ${error.message}`, false);
  }
}

/** The Hub token: HF_TOKEN, else the secret named by HF_TOKEN_SECRET_ARN (a plain string), else none. */
export async function hubToken(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const settings = syncSettings(env);
  if (settings.HF_TOKEN) return settings.HF_TOKEN;
  const arn = settings.HF_TOKEN_SECRET_ARN;
  if (!arn) return undefined;
  if (cachedToken?.arn !== arn) {
    const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    if (!secret.SecretString)
      throw new WeightsError(
        'InvalidSyncInput',
        `secret ${arn} has no string value (store the token as plain text)`,
        false,
      );
    cachedToken = { arn, token: secret.SecretString.trim() };
  }
  return cachedToken.token;
}

export async function hubClient(env: NodeJS.ProcessEnv = process.env): Promise<HubClient> {
  return new HubClient({ endpoint: syncSettings(env).HF_ENDPOINT, token: (await hubToken(env)) ?? '' });
}

/** One client per container (connections are reused across invocations). */
export function s3Client(): S3Client {
  return (cachedS3 ??= s3ClientFromEnv());
}

/** Parses a step's input; a bad one fails the execution with InvalidSyncInput naming the fields. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, step: string): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; ');
    throw new WeightsError('InvalidSyncInput', `${step} input is invalid: ${problems}`, false);
  }
  return parsed.data;
}

const repoFile = z.object({
  path: z.string().min(1),
  size: z.number().int().nonnegative(),
  sha256: z.string().nullable(),
  blobId: z.string().min(1),
});

/** What the Map hands to each copy: the resolved commit and destination, and one file. */
export const copyInput = z.object({
  repo: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  bucket: z.string().min(3),
  keyPrefix: z.string().endsWith('/'),
  file: repoFile,
});

export const fileResult = z.object({
  path: z.string(),
  size: z.number().int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  copied: z.boolean(),
});

export const manifestInput = copyInput.omit({ file: true }).extend({ files: z.array(fileResult) });
