// Errors raised by the weight sync. Each has a stable `name` (Step Functions matches Retry and
// Catch rules on it, as the Lambda runtime reports error.name as the errorType) and `retryable`.
//
//   name                   retryable  meaning
//   HubThrottled           yes        Hugging Face answered 429 after our own retries
//   HubUnavailable         yes        Hugging Face answered 5xx, or the connection failed
//   DownloadInterrupted    yes        a download ended before the listed size (truncated body)
//   HubRequestFailed       no         any other non-2xx answer (401 gated repo, 404 unknown revision)
//   DigestMismatch         no         the bytes do not match the listed size and digest
//   InvalidSyncInput       no         bad input (repository id, revision, include patterns, paths)
//   IntegrityError         no         the listing contradicts a pinned expectation
import { KokoroError } from '@kokoro-speech/protocol/errors';
export class WeightsError extends KokoroError {
  constructor(name: string, message: string, retryable: boolean, options?: { cause?: unknown; status?: number }) {
    super(name, message, { retryable, cause: options?.cause, status: options?.status });
    this.name = name;
  }
}

/** Hugging Face answered with an HTTP status we could not recover from. */
export class HubHttpError extends WeightsError {
  declare readonly status: number;
  /** The server's Retry-After, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, url: string, detail: string, retryAfterMs?: number) {
    const name = status === 429 ? 'HubThrottled' : status >= 500 ? 'HubUnavailable' : 'HubRequestFailed';
    super(
      name,
      `Hugging Face answered HTTP ${status} for ${url}${detail ? `: ${detail}` : ''}`,
      name !== 'HubRequestFailed',
      { status },
    );
    this.retryAfterMs = retryAfterMs;
  }
}

export const hubUnreachable = (url: string, cause: unknown): WeightsError =>
  new WeightsError('HubUnavailable', `Hugging Face could not be reached at ${url}: ${String(cause)}`, true, { cause });

export const downloadInterrupted = (path: string, received: number, expected: number, cause?: unknown): WeightsError =>
  new WeightsError(
    'DownloadInterrupted',
    `download of ${path} ended after ${received} of ${expected} bytes${cause ? ` (${String(cause)})` : ''}`,
    true,
    { cause },
  );

export const digestMismatch = (path: string, what: string): WeightsError =>
  new WeightsError('DigestMismatch', `${path}: ${what}; nothing was written`, false);

export const invalidInput = (message: string): WeightsError => new WeightsError('InvalidSyncInput', message, false);

export const integrityError = (message: string): WeightsError => new WeightsError('IntegrityError', message, false);

/** Whether an error is worth retrying: ours say so; network failures from fetch are. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof WeightsError) return error.retryable;
  return error instanceof TypeError && /fetch failed|terminated|socket/i.test(error.message);
}
