// The session layer's failures as LiveKit's API errors: the class LiveKit's callers branch on, the
// status, and `retryable` only while no utterance is half delivered.
import { describe, expect, test } from '@jest/globals';
import { APIConnectionError, APIError, APIStatusError } from '@livekit/agents';
import { TtsTransportError } from '@kokoro-speech/runtime/tts';
import { KokoroTtsError, eventError, toApiError } from './errors.ts';

describe('toApiError', () => {
  test('a stream that broke and could not be re-opened: a connection error, retryable if nothing is half delivered', () => {
    const lost = new TtsTransportError('connection_lost', 'gone after 4 tries in 5000 ms', { retryable: true });
    const error = toApiError(lost, false);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('Kokoro TTS: gone after 4 tries in 5000 ms');
    expect(toApiError(lost, true).retryable).toBe(false);
  });

  test('a refusal past the retry budget: status 503, retryable', () => {
    const refused = new TtsTransportError('overloaded', 'refused 5 times in 2000 ms', { retryable: true });
    const error = toApiError(refused, false) as APIStatusError;
    expect(error).toBeInstanceOf(APIStatusError);
    expect(error.statusCode).toBe(503);
    expect(error.retryable).toBe(true);
  });

  test('credentials the service refuses: status 403, never retried', () => {
    const error = toApiError(new TtsTransportError('unauthorized', 'InvalidSignatureException'), false);
    expect(error).toMatchObject({ statusCode: 403, retryable: false });
  });

  test("the container's own codes keep their HTTP status", () => {
    expect(toApiError(eventError('unknown_voice', 'no voice zz', null), false)).toMatchObject({
      statusCode: 400,
      retryable: false,
      message: 'Kokoro TTS: the session failed with unknown_voice: no voice zz',
      body: { code: 'unknown_voice' },
    });
    expect(toApiError(eventError('overloaded', 'queue full', 'u1'), false)).toMatchObject({
      statusCode: 503,
      retryable: true,
    });
    expect(toApiError(new KokoroTtsError('text_too_long', 'too long'), false)).toMatchObject({ statusCode: 413 });
  });

  test('anything else: a plain API error, not retried; an API error passes as it is', () => {
    const error = toApiError(new Error('boom'), false);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(APIStatusError);
    expect(error).toMatchObject({ message: 'Kokoro TTS: boom', retryable: false });
    const given = new APIConnectionError({ message: 'x' });
    expect(toApiError(given, true)).toBe(given);
  });
});
