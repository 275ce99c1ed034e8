// Errors of the SageMaker streaming client, with the AWS error code and HTTP status when known.
import { KokoroError } from '@kokoro-speech/protocol/errors';

export class SageMakerStreamError extends KokoroError {
  // code: the AWS error code (InvalidSignatureException, ValidationError, ModelError, ...) or a
  // local one; status: the HTTP status of a rejected call, undefined after the stream opened.
  // Whether one is worth retrying is the caller's call (runtime/src/tts/sagemaker-errors.ts).
  /** ModelError only: the status and body the model container answered with (the model's members). */
  readonly originalStatusCode: number | undefined;
  readonly originalMessage: string | undefined;
  constructor(
    code: string,
    message: string,
    options?: { status?: number; cause?: unknown; originalStatusCode?: number; originalMessage?: string },
  ) {
    super(code, message, { status: options?.status, cause: options?.cause });
    this.originalStatusCode = options?.originalStatusCode;
    this.originalMessage = options?.originalMessage;
  }
}

/** Reads an AWS JSON error response (x-amzn-errortype header, `message`/`Message` in the body). */
export function parseErrorResponse(
  status: number,
  headers: Record<string, string | undefined>,
  body: string,
): SageMakerStreamError {
  let parsed: {
    __type?: string;
    message?: string;
    Message?: string;
    OriginalStatusCode?: unknown;
    OriginalMessage?: unknown;
  } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    parsed = { message: body.slice(0, 500) };
  }
  const type = (headers['x-amzn-errortype'] ?? parsed.__type ?? `Http${status}`).split(':')[0]!.split('#').at(-1)!;
  return new SageMakerStreamError(
    type,
    `${type} (HTTP ${status}): ${parsed.message ?? parsed.Message ?? 'no message'}`,
    {
      status,
      ...(typeof parsed.OriginalStatusCode === 'number' && { originalStatusCode: parsed.OriginalStatusCode }),
      ...(typeof parsed.OriginalMessage === 'string' && { originalMessage: parsed.OriginalMessage }),
    },
  );
}
