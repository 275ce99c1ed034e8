// Hugging Face Hub client: resolve a revision to its commit with the file list (sizes, digests),
// and download one file of a commit. Base URL from HF_ENDPOINT and token from HF_TOKEN, as in the
// huggingface_hub library; 429 and 5xx are retried with backoff (retry.ts).
import { Readable } from 'node:stream';
import { z } from 'zod';
import { HubHttpError, hubUnreachable, invalidInput } from './errors.ts';
import { parseRetryAfter, withRetry, type RetryOptions } from './retry.ts';
import { readWeightsEnv } from './env.ts';

export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

export interface HubOptions {
  /** Base URL. Default: HF_ENDPOINT, else https://huggingface.co. */
  endpoint?: string;
  /** Bearer token for gated or private repositories. Default: HF_TOKEN. */
  token?: string;
  retry?: RetryOptions;
}

/** One file of a commit. `sha256` is known for LFS files; small files carry only their git blob id. */
export interface RepoFile {
  path: string;
  size: number;
  sha256: string | null;
  blobId: string;
}

export interface ResolvedRevision {
  repo: string;
  commit: string;
  files: RepoFile[];
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
export const COMMIT = /^[0-9a-f]{40}$/;

const modelInfo = z.object({
  sha: z.string().regex(COMMIT),
  siblings: z.array(
    z.object({
      rfilename: z.string().min(1),
      size: z.number().int().nonnegative(),
      blobId: z.string().min(1),
      lfs: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() }).optional(),
    }),
  ),
});

export function assertRepoId(repo: string): void {
  if (!REPO_ID.test(repo) || repo.includes('..')) {
    throw invalidInput(`repository id must look like "owner/name", got ${JSON.stringify(repo)}`);
  }
}

export function assertRelativePath(path: string): void {
  if (
    path === '' ||
    path.startsWith('/') ||
    path.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw invalidInput(`file path must be relative without "." or ".." segments, got ${JSON.stringify(path)}`);
  }
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

export class HubClient {
  readonly endpoint: string;
  readonly #token: string | undefined;
  readonly #retry: RetryOptions;

  constructor(options: HubOptions = {}) {
    // The variables only when an option is missing: a bad HF_ENDPOINT must not stop a given endpoint.
    const env = options.endpoint === undefined || options.token === undefined ? readWeightsEnv() : {};
    const endpoint = options.endpoint ?? env.HF_ENDPOINT ?? DEFAULT_HF_ENDPOINT;
    if (!/^https?:\/\//.test(endpoint))
      throw invalidInput(`HF endpoint must be an http(s) URL, got ${JSON.stringify(endpoint)}`);
    this.endpoint = endpoint.replace(/\/+$/, '');
    this.#token = options.token ?? env.HF_TOKEN;
    this.#retry = options.retry ?? {};
  }

  /** Resolves a branch, tag or commit to its commit and lists every file with size and digest. */
  async resolveRevision(repo: string, revision: string, signal?: AbortSignal): Promise<ResolvedRevision> {
    assertRepoId(repo);
    if (revision.trim() === '' || revision.includes('..'))
      throw invalidInput(`revision must be a branch, tag or commit, got ${JSON.stringify(revision)}`);
    const url = `${this.endpoint}/api/models/${repo}/revision/${encodeURIComponent(revision)}?blobs=true`;
    const response = await this.#get(url, signal);
    const parsed = modelInfo.safeParse(await response.json());
    if (!parsed.success) throw invalidInput(`unexpected model info from ${url}: ${parsed.error.message}`);
    const files = parsed.data.siblings.map((s) => ({
      path: s.rfilename,
      size: s.size,
      sha256: s.lfs?.sha256 ?? null,
      blobId: s.blobId,
    }));
    files.forEach((file) => assertRelativePath(file.path));
    return { repo, commit: parsed.data.sha, files };
  }

  /** Opens a download of one file at a commit, following the CDN redirect. */
  async download(repo: string, commit: string, path: string, signal?: AbortSignal): Promise<Readable> {
    assertRepoId(repo);
    assertRelativePath(path);
    const response = await this.#get(`${this.endpoint}/${repo}/resolve/${commit}/${encodePath(path)}`, signal);
    if (!response.body) throw new HubHttpError(response.status, response.url, 'empty body');
    return Readable.fromWeb(response.body, { signal });
  }

  async #get(url: string, signal: AbortSignal | undefined): Promise<Response> {
    const headers: Record<string, string> = { 'user-agent': 'kokoro-speech-weights/0.1' };
    if (this.#token) headers['authorization'] = `Bearer ${this.#token}`;
    return withRetry(
      async () => {
        let response: Response;
        try {
          // fetch drops the Authorization header when a redirect leaves the origin (the CDN).
          response = await fetch(url, { headers, redirect: 'follow', signal });
        } catch (error) {
          if (signal?.aborted) throw error;
          throw hubUnreachable(url, error);
        }
        if (response.ok) return response;
        const detail = (await response.text().catch(() => '')).slice(0, 200);
        throw new HubHttpError(response.status, url, detail, parseRetryAfter(response.headers.get('retry-after')));
      },
      { ...this.#retry, signal },
    );
  }
}
