// One error type for every provider's failure, carrying the turn contract's stt_* code and whether
// trying again may help; a stream turns it into its `error` event.
import type { SttErrorCode, SttEvent } from './types.ts';

export class SttError extends Error {
  readonly code: SttErrorCode;
  readonly retryable: boolean;
  constructor(code: SttErrorCode, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'SttError';
    this.code = code;
    this.retryable =
      options.retryable ?? (code === 'stt_throttled' || code === 'stt_unavailable' || code === 'stt_timeout');
  }

  toEvent(): Extract<SttEvent, { type: 'error' }> {
    return { type: 'error', code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** An SttError as is; anything else (a bug, an unexpected library error) as stt_failed. */
export function asSttError(error: unknown, provider: string): SttError {
  if (error instanceof SttError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new SttError('stt_failed', `${provider}: ${why}`, { retryable: false, cause: error });
}

/** Node's network error codes that mean the server could not be reached at all. */
export const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
]);

/** The first system error code on `error` or its causes (fetch wraps them: TypeError{cause}). */
export function systemCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_/.test(code)) return code;
  }
  return undefined;
}
