// Where a lexicon comes from (KOKORO_LEXICON): a file path, or an S3 object `s3://bucket/key`
// read with the SDK's standard settings (region, credentials, AWS_ENDPOINT_URL_S3), and the
// model's phoneme symbols (its tokenizer.json) to check it against before the model loads.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { LexiconError, parseLexicon, type LexiconEntry } from './lexicon.ts';

/** The lexicon file's largest accepted size. */
export const MAX_LEXICON_BYTES = 16 * 1024 * 1024;

/** `s3://bucket/key` split, or null for a file path. */
export function s3Location(source: string): { bucket: string; key: string } | null {
  const m = /^s3:\/\/([^/]+)\/(.+)$/.exec(source);
  if (!m) {
    if (source.startsWith('s3://')) throw new LexiconError(`KOKORO_LEXICON ${source} must be s3://bucket/key`);
    return null;
  }
  return { bucket: m[1]!, key: m[2]! };
}

async function readS3(bucket: string, key: string, env: NodeJS.ProcessEnv): Promise<string> {
  // A custom endpoint (a local S3 stand-in) gets path-style addressing, as such servers expect.
  const custom = Boolean(env['AWS_ENDPOINT_URL_S3'] || env['AWS_ENDPOINT_URL']);
  const client = new S3Client({ forcePathStyle: custom, maxAttempts: 3 });
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    if ((object.ContentLength ?? 0) > MAX_LEXICON_BYTES) throw new Error(`it is over ${MAX_LEXICON_BYTES} bytes`);
    return await object.Body!.transformToString('utf8');
  } finally {
    client.destroy();
  }
}

/** Reads and checks the lexicon named by `source` (a path or s3://bucket/key). */
export async function loadLexicon(source: string, env: NodeJS.ProcessEnv = process.env): Promise<LexiconEntry[]> {
  const s3 = s3Location(source);
  let text: string;
  try {
    text = s3 ? await readS3(s3.bucket, s3.key, env) : await readFile(source, 'utf8');
  } catch (error) {
    throw new LexiconError(
      `cannot read the lexicon KOKORO_LEXICON=${source}: ${(error as { message?: string }).message ?? errorMessage(error)}`,
    );
  }
  return parseLexicon(text, source);
}

/** Kokoro's phoneme symbols from a model folder's tokenizer.json (model.vocab), or undefined if unreadable. */
export async function readSymbols(modelDir: string): Promise<ReadonlySet<string> | undefined> {
  try {
    const json = JSON.parse(await readFile(join(modelDir, 'tokenizer.json'), 'utf8')) as { model?: { vocab?: object } };
    return json.model?.vocab ? new Set(Object.keys(json.model.vocab)) : undefined;
  } catch {
    return undefined;
  }
}
