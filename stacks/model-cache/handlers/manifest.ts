// Step 3 of the weight sync: write manifest.json last, so a prefix with a manifest is complete.
// An identical manifest already there is kept (its time stays that of the first complete sync).
import { buildManifest, readManifestFromS3, sameFiles, writeManifestToS3, MANIFEST_NAME } from '@kokoro-speech/weights';
import { manifestInput, parseInput, s3Client } from './settings.ts';

export interface ManifestOutput {
  repo: string;
  commit: string;
  modelDataUri: string;
  manifestKey: string;
  filesCopied: number;
  filesSkipped: number;
  bytesCopied: number;
}

export async function handler(event: unknown): Promise<ManifestOutput> {
  const input = parseInput(manifestInput, event, 'manifest');
  const s3 = s3Client();
  const files = input.files.map(({ path, size, sha256 }) => ({ path, size, sha256 }));
  const existing = await readManifestFromS3(s3, input.bucket, input.keyPrefix);
  const unchanged =
    existing !== null &&
    existing.repo === input.repo &&
    existing.commit === input.commit &&
    sameFiles(existing.files, files);
  const manifestKey = unchanged
    ? `${input.keyPrefix}${MANIFEST_NAME}`
    : await writeManifestToS3(s3, input.bucket, input.keyPrefix, buildManifest(input.repo, input.commit, files));
  const copied = input.files.filter((f) => f.copied);
  return {
    repo: input.repo,
    commit: input.commit,
    modelDataUri: `s3://${input.bucket}/${input.keyPrefix}`,
    manifestKey,
    filesCopied: copied.length,
    filesSkipped: input.files.length - copied.length,
    bytesCopied: copied.reduce((sum, f) => sum + f.size, 0),
  };
}
