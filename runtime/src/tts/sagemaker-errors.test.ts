// The one SageMaker failure table, fed the three shapes the transports meet.
import { describe, expect, test } from '@jest/globals';
import { ModelError, ModelStreamError, ServiceUnavailable, ValidationError } from '@aws-sdk/client-sagemaker-runtime';
import { SageMakerStreamError } from '@kokoro-speech/sagemaker';
import { sageMakerError, sageMakerStreamEventError } from './sagemaker-errors.ts';
import { TtsTransportError } from './types.ts';

const pick = (e: TtsTransportError) => [e.code, e.retryable];
const metadata = (httpStatusCode?: number) => ({ $metadata: httpStatusCode === undefined ? {} : { httpStatusCode } });

describe('sageMakerError', () => {
  test('client errors: 403 and signature codes are unauthorized, 4xx final, 429/5xx retryable, none answered is connection_lost', () => {
    expect(
      pick(sageMakerError(new SageMakerStreamError('InvalidSignatureException', 'bad sig', { status: 403 }))),
    ).toEqual(['unauthorized', false]);
    expect(pick(sageMakerError(new SageMakerStreamError('ValidationError', 'no endpoint', { status: 400 })))).toEqual([
      'bad_response',
      false,
    ]);
    expect(pick(sageMakerError(new SageMakerStreamError('ThrottlingException', 'slow down', { status: 429 })))).toEqual(
      ['bad_response', true],
    );
    expect(pick(sageMakerError(new SageMakerStreamError('InternalFailure', 'oops', { status: 500 })))).toEqual([
      'bad_response',
      true,
    ]);
    expect(pick(sageMakerError(new SageMakerStreamError('NetworkingError', 'ECONNREFUSED')))).toEqual([
      'connection_lost',
      true,
    ]);
    expect(pick(sageMakerError(new SageMakerStreamError('StreamReset', 'reset')))).toEqual(['connection_lost', true]);
  });

  test('SDK exceptions of the response-stream call, by name and HTTP status', () => {
    const stream = new ModelStreamError({ message: 'broke off', $metadata: {}, ErrorCode: 'ModelStreamError' });
    expect(pick(sageMakerError(stream))).toEqual(['model_stream_error', true]);
    const validation = new ValidationError({ message: 'Endpoint x not found.', $metadata: { httpStatusCode: 400 } });
    expect(sageMakerError(validation)).toMatchObject({
      code: 'bad_response',
      retryable: false,
      message: 'ValidationError (HTTP 400): Endpoint x not found.',
    });
    expect(
      pick(sageMakerError(new ServiceUnavailable({ message: 'busy', $metadata: { httpStatusCode: 503 } }))),
    ).toEqual(['bad_response', true]);
    expect(
      pick(
        sageMakerError(Object.assign(new Error('denied'), { name: 'UnrecognizedClientException', ...metadata(403) })),
      ),
    ).toEqual(['unauthorized', false]);
    expect(pick(sageMakerError(Object.assign(new Error('socket hang up'), metadata())))).toEqual([
      'connection_lost',
      true,
    ]);
  });

  test('a TtsTransportError passes unchanged', () => {
    const original = new TtsTransportError('bad_response', 'as is');
    expect(sageMakerError(original)).toBe(original);
  });
});

test('sageMakerStreamEventError: exception events inside a stream', () => {
  expect(
    sageMakerStreamEventError({ type: 'ModelStreamError', message: 'closed (1011)', errorCode: 'ModelStreamError' }),
  ).toMatchObject({
    code: 'model_stream_error',
    retryable: true,
    message: 'ModelStreamError ModelStreamError: closed (1011)',
  });
  expect(pick(sageMakerStreamEventError({ type: 'InternalStreamFailure', message: 'x' }))).toEqual([
    'internal_stream_failure',
    true,
  ]);
  expect(
    pick(sageMakerStreamEventError({ type: 'exception', name: 'InvalidSignatureException', message: 'chain broken' })),
  ).toEqual(['unauthorized', false]);
  expect(
    pick(sageMakerStreamEventError({ type: 'exception', name: 'ValidationException', message: 'bad part' })),
  ).toEqual(['bad_response', false]);
});

test("a container's 503 behind SageMaker (ModelError, OriginalStatusCode 503) is overloaded, retryable, with the container's reason", () => {
  const body = JSON.stringify({
    error: { code: 'overloaded', message: 'one more session would run dry', retry_after_s: 1 },
  });
  const bidi = new SageMakerStreamError('ModelError', 'ModelError (HTTP 424): Received server error (503)', {
    status: 424,
    originalStatusCode: 503,
    originalMessage: body,
  });
  expect(sageMakerError(bidi)).toMatchObject({
    code: 'overloaded',
    retryable: true,
    message: 'the TTS container refused (HTTP 503): one more session would run dry',
  });
  const sdk = new ModelError({
    message: 'Received server error (503)',
    $metadata: { httpStatusCode: 424 },
    OriginalStatusCode: 503,
    OriginalMessage: 'busy',
  });
  expect(pick(sageMakerError(sdk))).toEqual(['overloaded', true]);
  // Other container errors stay what they were: a 500 behind ModelError is a final bad_response (424).
  const broken = new SageMakerStreamError('ModelError', 'x', { status: 424, originalStatusCode: 500 });
  expect(pick(sageMakerError(broken))).toEqual(['bad_response', false]);
});

test('a container SageMaker could not reach (ModelError, OriginalStatusCode 502 or 504) is retryable: it may be restarting', () => {
  for (const originalStatusCode of [502, 504]) {
    const unreachable = new SageMakerStreamError('ModelError', "cannot reach the container's WebSocket", {
      status: 424,
      originalStatusCode,
    });
    expect(pick(sageMakerError(unreachable))).toEqual(['bad_response', true]);
  }
});
