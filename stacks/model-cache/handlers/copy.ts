// Step 2 of the weight sync, run once per file by the Map: stream the file from the Hub into S3
// while hashing; skip it when an object with the same size and digest is already there.
import { DEFAULT_PART_SIZE, copyFileToS3, type FileResult } from '@kokoro-speech/weights';
import { copyInput, hubClient, parseInput, s3Client, syncSettings } from './settings.ts';

export async function handler(event: unknown): Promise<FileResult> {
  const input = parseInput(copyInput, event, 'copy');
  const partMiB = syncSettings().PART_SIZE_MIB;
  const started = Date.now();
  const result = await copyFileToS3({
    hub: await hubClient(),
    s3: s3Client(),
    bucket: input.bucket,
    keyPrefix: input.keyPrefix,
    repo: input.repo,
    commit: input.commit,
    file: input.file,
    partSize: partMiB ? partMiB * 1024 * 1024 : DEFAULT_PART_SIZE,
  });
  console.log(
    JSON.stringify({
      message: result.copied ? 'copied' : 'already present',
      key: `${input.keyPrefix}${result.path}`,
      bytes: result.size,
      ms: Date.now() - started,
    }),
  );
  return result;
}
