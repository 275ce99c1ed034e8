// What the sync Lambdas read from their environment and input: the Hugging Face client (HF_ENDPOINT,
// token from HF_TOKEN or a Secrets Manager secret), the S3 client (standard AWS settings), and the
// zod schemas of each step's input. Read per invocation so tests can point them at stand-ins.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { HubClient, WeightsError, s3ClientFromEnv } from '@kokoro-speech/weights';
import type { S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';

let cachedToken: { arn: string; token: string } | undefined;
let cachedS3: S3Client | undefined;

/** The Hub token: HF_TOKEN, else the secret named by HF_TOKEN_SECRET_ARN (a plain string), else none. */
export async function hubToken(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (env['HF_TOKEN']) return env['HF_TOKEN'];
  const arn = env['HF_TOKEN_SECRET_ARN'];
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
  return new HubClient({ endpoint: env['HF_ENDPOINT'] || undefined, token: (await hubToken(env)) ?? '' });
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
