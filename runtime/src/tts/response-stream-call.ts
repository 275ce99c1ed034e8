// One utterance over InvokeEndpointWithResponseStream: the container's POST /invocations answer
// comes back in PayloadParts whose boundaries do not match its writes, so the bytes are re-framed
// here at whole samples. Failures are sorted into the utterance's own error (the container refused
// the text: the session goes on) and transport failures (sagemaker-errors.ts; retried once by the
// session).
import { InvokeEndpointWithResponseStreamCommand, ModelError } from '@aws-sdk/client-sagemaker-runtime';
import type { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { ERROR_CODES } from '@kokoro-speech/protocol';
import type { ErrorCode, VoiceSettings } from '@kokoro-speech/protocol';
import { fromUtf8 } from '@smithy/util-utf8';
import { sageMakerError } from './sagemaker-errors.ts';
import { TtsTransportError } from './types.ts';
import { KokoroError } from '@kokoro-speech/protocol/errors';

/** The container refused this utterance (its POST /invocations answered 4xx/5xx). */
export class UtteranceRefused extends KokoroError<ErrorCode> {
  constructor(code: ErrorCode, message: string) {
    super(code, message, { retryable: code === 'overloaded' });
  }
}

function refusal(error: ModelError): UtteranceRefused {
  try {
    const body = JSON.parse(error.OriginalMessage ?? '') as { error?: { code?: string; message?: string } };
    const code = ERROR_CODES.find((c) => c === body.error?.code) ?? 'internal';
    return new UtteranceRefused(code, body.error?.message ?? error.message);
  } catch {
    return new UtteranceRefused('internal', error.OriginalMessage || error.message);
  }
}

/** The container's refusal of this utterance (the session goes on), or a transport failure. */
function classify(error: unknown): UtteranceRefused | TtsTransportError {
  if (error instanceof UtteranceRefused) return error;
  if (error instanceof ModelError && (error.OriginalStatusCode ?? 500) < 500) return refusal(error);
  // A 503 (the container's admission control) is sagemaker-errors.ts's `overloaded`: retried.
  return sageMakerError(error);
}

/** Audio of one utterance in whole samples of `bytesPerSample` bytes. */
export async function* invokeUtterance(
  client: SageMakerRuntimeClient,
  request: { endpointName: string; targetVariant?: string; text: string; settings: VoiceSettings },
  bytesPerSample: number,
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array = new Uint8Array(0);
  try {
    const response = await client.send(
      new InvokeEndpointWithResponseStreamCommand({
        EndpointName: request.endpointName,
        ...(request.targetVariant && { TargetVariant: request.targetVariant }),
        ContentType: 'application/json',
        Body: fromUtf8(JSON.stringify({ ...request.settings, text: request.text })),
      }),
      { abortSignal: signal },
    );
    if (!response.Body)
      throw new TtsTransportError('bad_response', 'InvokeEndpointWithResponseStream returned no body');
    for await (const event of response.Body) {
      const bytes = event.PayloadPart?.Bytes;
      if (!bytes?.byteLength) continue;
      const joined = carry.byteLength ? Buffer.concat([carry, bytes]) : bytes;
      const whole = joined.byteLength - (joined.byteLength % bytesPerSample);
      carry = joined.subarray(whole);
      if (whole > 0) yield joined.subarray(0, whole);
    }
  } catch (error) {
    throw classify(error);
  }
  if (carry.byteLength)
    throw new TtsTransportError(
      'connection_lost',
      `the audio stream ended inside a sample (${carry.byteLength} stray bytes)`,
      { retryable: true },
    );
}
