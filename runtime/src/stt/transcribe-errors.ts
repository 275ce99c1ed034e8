// Every way a Transcribe streaming call fails, as an stt_* code: the service's modelled exceptions
// (sent as the HTTP answer or as an exception event mid-stream), AWS's common errors (credentials,
// signatures, throttling), the SDK's own (no credentials) and the network's.
import { SttError, systemCode, UNREACHABLE_CODES } from './errors.ts';
import type { SttErrorCode } from './types.ts';

/** Exception names as Transcribe and AWS's common errors name them. */
const BY_NAME: Readonly<Record<string, SttErrorCode>> = {
  LimitExceededException: 'stt_throttled',
  ThrottlingException: 'stt_throttled',
  TooManyRequestsException: 'stt_throttled',
  ServiceQuotaExceededException: 'stt_throttled',
  ServiceUnavailableException: 'stt_unavailable',
  InternalFailureException: 'stt_unavailable',
  BadRequestException: 'stt_refused',
  ConflictException: 'stt_refused',
  AccessDeniedException: 'stt_refused',
  UnrecognizedClientException: 'stt_refused',
  InvalidSignatureException: 'stt_refused',
  IncompleteSignatureException: 'stt_refused',
  ExpiredTokenException: 'stt_refused',
  CredentialsProviderError: 'stt_refused',
  TimeoutError: 'stt_timeout',
};

export function transcribeSttError(error: unknown, where: string): SttError {
  if (error instanceof SttError) return error;
  const e = (error ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const message = e.message || String(error);
  const code = systemCode(error);
  if (code && UNREACHABLE_CODES.has(code))
    return new SttError('stt_unavailable', `${where} could not be reached (${code}): ${message}`, { cause: error });
  // The SDK's HTTP/2 handler reports a refused or dropped connection in words, without a code.
  if (/HTTP\/2 (stream|session)|ECONNREFUSED|socket hang up/i.test(message))
    return new SttError('stt_unavailable', `${where} could not be reached: ${message}`, { cause: error });
  let stt = BY_NAME[e.name ?? ''];
  // Transcribe ends a stream that got no audio for 15 s with a BadRequestException saying so.
  if (stt === 'stt_refused' && /timed out|no new audio/i.test(message)) stt = 'stt_timeout';
  const status = e.$metadata?.httpStatusCode;
  if (!stt && status !== undefined)
    stt = status === 429 ? 'stt_throttled' : status >= 500 ? 'stt_unavailable' : 'stt_refused';
  return new SttError(stt ?? 'stt_failed', `${where}: ${e.name ?? 'Error'}: ${message}`, {
    ...(stt ? {} : { retryable: false }),
    cause: error,
  });
}
