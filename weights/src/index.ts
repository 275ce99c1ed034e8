// @kokoro-speech/weights: download-verify-write of pinned Hugging Face revisions, with a
// filesystem sink (local mode's `npm start`) and an S3 sink (the model-cache stack's Lambdas).
export { WeightsError, HubHttpError, isRetryable } from './errors.ts';
export { HubClient, DEFAULT_HF_ENDPOINT, type HubOptions, type RepoFile, type ResolvedRevision } from './hub.ts';
export { withRetry, parseRetryAfter, type RetryOptions } from './retry.ts';
export { createDigestCheck, type Verified } from './verify.ts';
export {
  MANIFEST_NAME,
  buildManifest,
  parseManifest,
  serializeManifest,
  sameFiles,
  selectFiles,
  matchesInclude,
  type Manifest,
  type ManifestFile,
} from './manifest.ts';
export { writeFileVerified, verifyLocalFile, type FileResult, type WriteFileOptions } from './fs-sink.ts';
export {
  syncToDirectory,
  defaultModelDir,
  readLocalManifest,
  checkLocalCopies,
  type LocalCopies,
  type SyncProgress,
  type SyncToDirectoryOptions,
} from './sync.ts';
export {
  copyFileToS3,
  readManifestFromS3,
  writeManifestToS3,
  s3ClientFromEnv,
  DEFAULT_PART_SIZE,
  type CopyToS3Options,
} from './s3-sink.ts';
export { modelKeyPrefix } from './layout.ts';
export {
  KOKORO_ONNX_REPO,
  KOKORO_ONNX_REVISION,
  KOKORO_ONNX_FILES,
  KOKORO_ONNX_PINNED,
  KOKORO_VOICE_DIGESTS,
  KOKORO_VOICES_PINNED,
  KOKORO_SYNC_INCLUDES,
  KOKORO_EXPORTS,
  KOKORO_TIMESTAMPED_REPO,
  KOKORO_TIMESTAMPED_REVISION,
  KOKORO_TIMESTAMPED_PINNED,
  exportIncludes,
  kokoroIncludes,
  kokoroDtypesIn,
  type KokoroDtype,
  type KokoroExport,
  type KokoroExportName,
} from './kokoro.ts';
