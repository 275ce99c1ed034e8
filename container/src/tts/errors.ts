// The one error type of the server: a protocol error code plus the HTTP status it maps to.
import { ERROR_CODES, type ErrorCode, type HttpErrorBody } from '@kokoro-speech/protocol';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

const STATUS: Record<ErrorCode, number> = {
  invalid_message: 400,
  unknown_voice: 400,
  text_too_long: 413,
  overloaded: 503,
  internal: 500,
  unsupported_language: 400,
  unspeakable_text: 422,
};

export class SpeechError extends KokoroError<ErrorCode> {
  declare readonly status: number;
  /** Seconds a client should wait before retrying (overloaded only). */
  readonly retryAfterS: number | undefined;

  constructor(code: ErrorCode, message: string, retryAfterS?: number) {
    super(code, message, { status: STATUS[code], retryable: code === 'overloaded' });
    this.retryAfterS = retryAfterS;
  }

  get body(): HttpErrorBody {
    const retry = this.retryAfterS === undefined ? {} : { retry_after_s: this.retryAfterS };
    return { error: { code: this.code, message: this.message, ...retry } };
  }
}

/** Any thrown value as a SpeechError; a KokoroError keeps a protocol code, others become `internal`. */
export function asSpeechError(error: unknown): SpeechError {
  if (error instanceof SpeechError) return error;
  const code = error instanceof KokoroError ? ERROR_CODES.find((c) => c === error.code) : undefined;
  return new SpeechError(code ?? 'internal', errorMessage(error));
}
