// Errors of LLM providers: one class with a stable code the pipeline forwards to the caller.
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

export type LlmErrorCode = 'llm_error' | 'llm_unavailable' | 'llm_unauthorized' | 'llm_timeout';

export class LlmError extends KokoroError<LlmErrorCode> {
  constructor(code: LlmErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, { cause: options?.cause, retryable: code === 'llm_unavailable' || code === 'llm_timeout' });
  }
}

/** Whether `error` is what an aborted operation threw (ours, Node's, the AWS SDK's or openai's). */
export function isAbortError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'AbortError' || error.name === 'APIUserAbortError';
}

/**
 * Maps a provider's failure to our contract: an abort rethrows the signal's reason (an AbortError),
 * anything else becomes an LlmError naming the provider and HTTP status where known. `request`
 * ("POST http://host/v1/chat/completions") is named when no answer came (the server was not reached).
 */
export function toLlmError(provider: string, error: unknown, signal?: AbortSignal, request?: string): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof LlmError || isAbortError(error)) return error;
  const status = httpStatus(error);
  const message = errorMessage(error);
  const noCredentials = [...causes(error)].some((e) => (e as { name?: unknown }).name === 'CredentialsProviderError');
  const code = status === 401 || status === 403 || noCredentials ? 'llm_unauthorized' : 'llm_error';
  const where = status === undefined ? '' : ` (HTTP ${status})`;
  // Why the request got no answer: the socket's error code, else the innermost cause ("bad port").
  const chain = [...causes(error)];
  const socketCode = chain.map((e) => (e as { code?: unknown }).code).find((c) => typeof c === 'string');
  const innermost = chain.length > 1 ? (chain.at(-1) as { message?: unknown }).message : undefined;
  const why = socketCode ?? (typeof innermost === 'string' ? innermost : undefined);
  const tried = status === undefined && request ? ` (${request}${why ? `: ${String(why)}` : ''})` : '';
  return new LlmError(code, `${provider} LLM failed${where}: ${message}${tried}`, { cause: error });
}

/** The error and the errors it wraps (Strands wraps the AWS SDK's in a ModelError). */
function* causes(error: unknown): Generator<object> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    yield e;
}

/** The HTTP status of an openai or AWS SDK error, looking through wrapping errors' causes. */
function httpStatus(error: unknown): number | undefined {
  for (const e of causes(error)) {
    const candidate =
      (e as { status?: unknown }).status ??
      (e as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode;
    if (typeof candidate === 'number') return candidate;
  }
  return undefined;
}
