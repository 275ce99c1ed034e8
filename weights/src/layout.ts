// Where a synced revision lies: `<prefix>/<repo>/<commit>/`, in S3 and in the manifest's eyes.
// Kept free of the AWS SDK so Pulumi programs can import it cheaply (`@kokoro-speech/weights/layout`).
import { invalidInput } from './errors.ts';
import { assertRepoId } from './hub.ts';

/** `<prefix>/<repo>/<commit>/`: the folder SageMaker lays out under /opt/ml/model. */
export function modelKeyPrefix(prefix: string, repo: string, commit: string): string {
  assertRepoId(repo);
  if (!/^[0-9a-f]{40}$/.test(commit)) throw invalidInput(`commit must be 40 hex digits, got ${JSON.stringify(commit)}`);
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed.split('/').some((part) => part === '.' || part === '..'))
    throw invalidInput(`prefix must not contain "." or "..": ${JSON.stringify(prefix)}`);
  return `${trimmed === '' ? '' : `${trimmed}/`}${repo}/${commit}/`;
}
