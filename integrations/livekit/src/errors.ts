// Failures of the Kokoro session layer as LiveKit's API errors. LiveKit retries a stream whose
// error is `retryable` by running it again; that is only offered when no utterance is half
// delivered, so a retry never repeats or drops audio (docs/design/livekit-plugin.md#errors-and-retries).
import { APIConnectionError, APIError, APIStatusError } from '@livekit/agents';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

/** The HTTP status of each container error code (docs/contracts/container-protocol-v1.md). */
const STATUS: Readonly<Record<string, number>> = {
  invalid_message: 400,
  unknown_voice: 400,
  unsupported_language: 400,
  unspeakable_text: 400,
  language_mismatch: 400,
  text_too_long: 413,
  unauthorized: 403,
  overloaded: 503,
  internal: 500,
};

/** Codes of the transport layer that mean "nobody answered": LiveKit's connection error. */
const CONNECTION = new Set(['connection_lost', 'model_stream_error', 'internal_stream_failure']);

/** An error the plugin raises itself (a voice the endpoint lacks, a refused utterance). */
export class KokoroTtsError extends KokoroError<string> {
  constructor(code: string, message: string, options: { retryable?: boolean; cause?: unknown } = {}) {
    super(code, message, { status: STATUS[code], ...options });
  }
}

/**
 * LiveKit's error for a failure of one attempt. `partial`: some utterance has delivered part of its
 * audio, so running the attempt again would repeat it: never retryable then.
 */
export function toApiError(error: unknown, partial: boolean): APIError {
  if (error instanceof APIError) return error;
  const message = `Kokoro TTS: ${errorMessage(error)}`;
  if (!(error instanceof KokoroError)) return new APIError(message, { retryable: false });
  const retryable = error.retryable && !partial;
  const body = { code: error.code };
  if (CONNECTION.has(error.code)) return new APIConnectionError({ message, options: { retryable } });
  const statusCode = error.status ?? STATUS[error.code];
  if (statusCode !== undefined) return new APIStatusError({ message, options: { statusCode, retryable, body } });
  return new APIError(message, { retryable, body });
}

/** An `error` event of the session as the error it is (its id: an utterance's; null: the session's). */
export function eventError(code: string, message: string, id: string | null): KokoroTtsError {
  const what = id === null ? 'the session' : `utterance ${id}`;
  return new KokoroTtsError(code, `${what} failed with ${code}: ${message}`, { retryable: code === 'overloaded' });
}

/**
 * Utterance errors that fail only that text (the session goes on); every other code (an unknown
 * voice, a language without G2P, a refusal) would fail every utterance alike, so it fails the stream.
 */
export const SKIPPABLE = new Set(['text_too_long', 'unspeakable_text', 'internal', 'invalid_message']);

/** pushText() or flush() after endInput(): the text would be lost. */
export class InputEndedError extends KokoroError<'input_ended'> {
  constructor(method: string) {
    super(
      'input_ended',
      `Kokoro TTS: ${method}() after endInput(): this stream takes no more text; open a new stream()`,
    );
  }
}
