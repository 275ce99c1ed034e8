// Errors of the OpenAI-compatible API in OpenAI's shape ({"error":{"message","type","param",
// "code"}}), with Retry-After on a 503 (the official openai client waits that long, then retries).
import type { ServerResponse } from 'node:http';
import { KokoroError } from '@kokoro-speech/protocol/errors';
import { sendJsonError } from '@kokoro-speech/protocol/server';

/** An error in OpenAI's shape (`{error: {message, type, param, code}}`). */
export class OpenAIError extends KokoroError {
  declare readonly status: number;
  readonly param: string | null;
  readonly type: string;
  /** Sent as Retry-After (a 503 overloaded); the openai client waits that long before its retry. */
  readonly retryAfterS: number | undefined;
  constructor(
    status: number,
    message: string,
    param: string | null,
    code: string,
    type = 'invalid_request_error',
    retryAfterS?: number,
  ) {
    super(code, message, { status, retryable: status === 503 });
    this.param = param;
    this.type = type;
    this.retryAfterS = retryAfterS;
  }

  /** 503 overloaded (a refusal, a full queue, a server loading or stopping). */
  static overloaded(message: string, retryAfterS?: number): OpenAIError {
    return new OpenAIError(503, message, null, 'overloaded', 'server_error', retryAfterS);
  }
}

export function sendOpenAIError(res: ServerResponse, error: OpenAIError): void {
  const body = { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
  sendJsonError(
    res,
    error.status,
    body,
    error.retryAfterS === undefined ? {} : { 'retry-after': String(error.retryAfterS) },
  );
}
