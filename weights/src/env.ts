// The variables the weights library reads, in one place and through the project's env parsers
// (protocol/src/env.ts: blank is unset, a bad value is a ConfigError naming it): the Hub's endpoint
// and token, the local cache folder, and whether S3 is a custom endpoint (a local stand-in).
import { z } from 'zod';
import { optional, parseEnv } from '@kokoro-speech/protocol/env';

const weightsEnv = z.object({
  HF_ENDPOINT: optional(z.string().regex(/^https?:\/\//, { error: 'must be an http(s) URL' })),
  HF_TOKEN: optional(z.string()),
  XDG_CACHE_HOME: optional(z.string()),
  AWS_ENDPOINT_URL_S3: optional(z.string()),
  AWS_ENDPOINT_URL: optional(z.string()),
  // Only 'true' turns it on, as the AWS SDK's own setting reads it.
  AWS_S3_FORCE_PATH_STYLE: optional(z.string()),
});

export type WeightsEnv = z.output<typeof weightsEnv>;

/** The weights library's variables from `env`; a ConfigError names every bad one. */
export function readWeightsEnv(env: Record<string, string | undefined> = process.env): WeightsEnv {
  return parseEnv(weightsEnv, env);
}
