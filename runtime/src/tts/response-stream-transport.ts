// SageMaker transport for endpoints without bidirectional streaming: one
// InvokeEndpointWithResponseStream call per utterance (see response-stream-session.ts), through
// the SDK's own client (its endpoint overridable: the local router).
import {
  InvokeEndpointWithResponseStreamCommand,
  ModelError,
  SageMakerRuntimeClient,
} from '@aws-sdk/client-sagemaker-runtime';
import { ERROR_CODES } from '@kokoro-speech/protocol';
import { fromUtf8 } from '@smithy/util-utf8';
import { sageMakerError } from './sagemaker-errors.ts';
import { voiceSettingsSchema } from '@kokoro-speech/protocol';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { runtimeEndpoint } from '@kokoro-speech/sagemaker';
import { ResponseStreamSession, UtteranceRefused, type UtteranceCall } from './response-stream-session.ts';
import { TtsTransportError } from './types.ts';
import type { TtsSession, TtsTransport, VoiceSettings } from './types.ts';
import type { RetryPolicy } from './retry.ts';

export interface SageMakerResponseStreamTransportOptions {
  endpointName: string;
  region: string;
  /** Runtime URL override (the local router); default the regional endpoint. */
  endpoint?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  targetVariant?: string;
  /** Calls in flight at once per session (default 3). */
  maxConcurrentCalls?: number;
  /** Refused calls (before any of their audio) are retried within this budget (default 2000 ms). */
  retry?: RetryPolicy;
}

export class SageMakerResponseStreamTransport implements TtsTransport {
  readonly name = 'sagemaker-response-stream' as const;
  readonly formats = ['pcm_s16le', 'mulaw', 'alaw'] as const;
  readonly #options: SageMakerResponseStreamTransportOptions;
  readonly #client: SageMakerRuntimeClient;

  constructor(options: SageMakerResponseStreamTransportOptions) {
    if (!options.endpointName)
      throw new TypeError('SAGEMAKER_ENDPOINT_NAME is required for the sagemaker-response-stream transport');
    const url = runtimeEndpoint(options.endpoint, options.region); // bad region or URL: fail now
    const endpoint = options.endpoint === undefined ? undefined : url.toString().replace(/\/$/, '');
    this.#options = options;
    this.#client = new SageMakerRuntimeClient({
      region: options.region,
      // This transport owns the retry policy (once per utterance, then a TtsTransportError); SDK
      // retries underneath would hide failures and add their backoff to time to first audio.
      maxAttempts: 1,
      ...(endpoint && { endpoint }),
      ...(options.credentials && { credentials: options.credentials }),
    });
  }

  /** One utterance's call on this transport's client and endpoint. */
  readonly #call: UtteranceCall = (request, bytesPerSample, signal) => {
    const { endpointName, targetVariant } = this.#options;
    const target = { endpointName, ...(targetVariant && { targetVariant }), ...request };
    return invokeUtterance(this.#client, target, bytesPerSample, signal);
  };

  async open(settings: VoiceSettings, signal?: AbortSignal): Promise<TtsSession> {
    const parsed = voiceSettingsSchema.strict().safeParse(settings);
    if (!parsed.success) throw new TypeError(`invalid voice settings: ${parsed.error.message}`);
    const format = parsed.data.format ?? 'pcm_s16le';
    if (format === 'wav')
      throw new TypeError(
        'the response-stream transport delivers raw audio: ask for pcm_s16le, mulaw or alaw, not wav',
      );
    const sample_rate = parsed.data.sample_rate ?? (format === 'pcm_s16le' ? 24000 : 8000);
    const session = new ResponseStreamSession(this.#call, this.#options, { ...parsed.data, format, sample_rate });
    signal?.addEventListener('abort', () => session.close(), { once: true });
    return session;
  }
}

// ---- One utterance over InvokeEndpointWithResponseStream: the container's POST /invocations answer
// comes back in PayloadParts whose boundaries do not match its writes, so the bytes are re-framed
// here at whole samples. Failures are sorted into the utterance's own error (the container refused
// the text: the session goes on) and transport failures (sagemaker-errors.ts; retried by the
// session).

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
async function* invokeUtterance(
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
