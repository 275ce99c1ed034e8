// Every SageMaker failure, whichever transport met it, mapped in one place to the session's error
// codes: an SDK exception of InvokeEndpointWithResponseStream, a SageMakerStreamError of the
// bidirectional-stream client, or an exception event inside a stream. The table (also in
// runtime/src/tts/README.md):
//   ModelStreamError              model_stream_error       retryable (the container broke the stream)
//   InternalStreamFailure         internal_stream_failure  retryable
//   HTTP 403, signature/token     unauthorized             not retryable
//   ModelError, container 503     overloaded               retryable (the container refused: admission control)
//   ModelError, container 502/504 bad_response             retryable (the container was unreachable: restarting)
//   HTTP 429 or 5xx, throttling   bad_response             retryable
//   any other service answer      bad_response             not retryable (a 4xx: retrying gives the same)
//   no answer (network, reset)    connection_lost          retryable
import type { ResponseEvent } from '@kokoro-speech/sagemaker';
import { SageMakerStreamError } from '@kokoro-speech/sagemaker';
import { TtsTransportError } from './types.ts';

const AUTH = new Set([
  'AccessDeniedException',
  'ExpiredTokenException',
  'IncompleteSignatureException',
  'InvalidClientTokenId',
  'InvalidSignatureException',
  'MissingAuthenticationTokenException',
  'UnrecognizedClientException',
]);
const BUSY = new Set(['ThrottlingException', 'ServiceUnavailable', 'InternalFailure', 'ServiceUnavailableException']);

/** A failure as the classifier reads it: who answered (the service, or nobody) and what. */
interface Failure {
  name: string;
  message: string;
  /** The service answered (an HTTP error or an exception event); false: the network failed. */
  answered: boolean;
  status?: number;
  errorCode?: string;
  /** ModelError: the status the container answered with. */
  originalStatusCode?: number;
  originalMessage?: string;
  cause?: unknown;
}

/** The message of a container's refusal body ({"error":{"code","message"}}), else the text itself. */
export function refusalMessage(body: string | undefined): string {
  if (!body) return 'no message';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: the text as it came
  }
  return body.slice(0, 300);
}

function classify(f: Failure): TtsTransportError {
  const options = (retryable: boolean) => ({ retryable, ...(f.cause === undefined ? {} : { cause: f.cause }) });
  if (f.name === 'ModelStreamError') {
    const code = f.errorCode ? ` ${f.errorCode}` : '';
    return new TtsTransportError('model_stream_error', `ModelStreamError${code}: ${f.message}`, options(true));
  }
  if (f.name === 'InternalStreamFailure') {
    return new TtsTransportError('internal_stream_failure', `InternalStreamFailure: ${f.message}`, options(true));
  }
  if (!f.answered) return new TtsTransportError('connection_lost', f.message, options(true));
  if (f.name === 'ModelError' && f.originalStatusCode === 503) {
    const why = refusalMessage(f.originalMessage);
    return new TtsTransportError('overloaded', `the TTS container refused (HTTP 503): ${why}`, options(true));
  }
  // The container could not be reached (502, 504: a restart, an instance being replaced): a later
  // try may reach it again, or another instance. Its own answers (a 500) stay final.
  if (f.name === 'ModelError' && (f.originalStatusCode === 502 || f.originalStatusCode === 504))
    return new TtsTransportError('bad_response', f.message, options(true));
  if (f.status === 403 || AUTH.has(f.name)) return new TtsTransportError('unauthorized', f.message, options(false));
  const busy = f.status === 429 || (f.status !== undefined && f.status >= 500) || BUSY.has(f.name);
  return new TtsTransportError('bad_response', f.message, options(busy));
}

/** A thrown error: a SageMakerStreamError, an SDK service exception, or a network error. */
export function sageMakerError(error: unknown): TtsTransportError {
  if (error instanceof TtsTransportError) return error;
  if (error instanceof SageMakerStreamError) {
    // The client's own codes for "nobody answered": no status, and a local code.
    const answered = error.status !== undefined;
    return classify({
      name: error.code,
      message: error.message,
      answered,
      cause: error,
      ...status(error.status),
      ...original(error.originalStatusCode, error.originalMessage),
    });
  }
  const e = error as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
    $fault?: string;
    OriginalStatusCode?: number;
    OriginalMessage?: string;
  };
  const httpStatus = e.$metadata?.httpStatusCode;
  const name = e.name ?? 'Error';
  // The SDK deserialises event-stream exceptions (ModelStreamError, ...) without an HTTP status.
  const answered = httpStatus !== undefined || e.$fault !== undefined;
  const message = `${name}${httpStatus === undefined ? '' : ` (HTTP ${httpStatus})`}: ${e.message ?? String(error)}`;
  return classify({
    name,
    message,
    answered,
    cause: error,
    ...status(httpStatus),
    ...original(e.OriginalStatusCode, e.OriginalMessage),
  });
}

/** An exception event read from a bidirectional stream. */
export function sageMakerStreamEventError(event: Exclude<ResponseEvent, { type: 'PayloadPart' }>): TtsTransportError {
  if (event.type === 'ModelStreamError') {
    return classify({ name: event.type, message: event.message, answered: true, ...errorCode(event.errorCode) });
  }
  if (event.type === 'InternalStreamFailure')
    return classify({ name: event.type, message: event.message, answered: true });
  return classify({ name: event.name, message: `${event.name}: ${event.message}`, answered: true });
}

const status = (value: number | undefined) => (value === undefined ? {} : { status: value });
const errorCode = (value: string | undefined) => (value === undefined ? {} : { errorCode: value });
const original = (code: number | undefined, message: string | undefined) => ({
  ...(code === undefined ? {} : { originalStatusCode: code }),
  ...(message === undefined ? {} : { originalMessage: message }),
});
