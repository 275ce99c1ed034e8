// Step 1 of the weight sync: resolve the revision to a commit and list the included files with
// sizes and digests. Missing input fields take the defaults the stack set in the environment.
import { WeightsError, modelKeyPrefix, selectFiles, type RepoFile } from '@kokoro-speech/weights';
import { z } from 'zod';
import { hubClient, parseInput, syncSettings, type SyncEnv } from './settings.ts';

const syncInput = z.object({
  repo: z.string().optional(),
  revision: z.string().optional(),
  include: z.array(z.string().min(1)).optional(),
  bucket: z.string().optional(),
  prefix: z.string().optional(),
});

export interface ResolveOutput {
  repo: string;
  commit: string;
  bucket: string;
  keyPrefix: string;
  files: RepoFile[];
  totalBytes: number;
}

function setting(value: string | undefined, envName: keyof SyncEnv & string, env: SyncEnv): string {
  const resolved = value ?? (env[envName] as string | undefined);
  if (resolved === undefined || resolved === '')
    throw new WeightsError(
      'InvalidSyncInput',
      `no ${envName.toLowerCase()} in the input and ${envName} is not set`,
      false,
    );
  return resolved;
}

export async function handler(event: unknown): Promise<ResolveOutput> {
  const input = parseInput(syncInput, event ?? {}, 'resolve');
  const env = syncSettings();
  const repo = setting(input.repo, 'DEFAULT_REPO', env);
  const revision = setting(input.revision, 'DEFAULT_REVISION', env);
  const include = input.include ?? env.DEFAULT_INCLUDE ?? [];
  const bucket = setting(input.bucket, 'BUCKET', env);
  const prefix = input.prefix ?? env.PREFIX ?? '';

  const hub = await hubClient();
  const resolved = await hub.resolveRevision(repo, revision);
  const files = selectFiles(resolved.files, include);
  console.log(JSON.stringify({ message: 'resolved', repo, revision, commit: resolved.commit, files: files.length }));
  return {
    repo,
    commit: resolved.commit,
    bucket,
    keyPrefix: modelKeyPrefix(prefix, repo, resolved.commit),
    files,
    totalBytes: files.reduce((sum, f) => sum + f.size, 0),
  };
}
