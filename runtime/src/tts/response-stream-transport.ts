// SageMaker transport for endpoints without bidirectional streaming: one
// InvokeEndpointWithResponseStream call per utterance (see response-stream-session.ts), through
// the SDK's own client (its endpoint overridable: the local router).
import { SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { voiceSettingsSchema } from '@kokoro-speech/protocol';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { runtimeEndpoint } from '@kokoro-speech/sagemaker';
import { ResponseStreamSession } from './response-stream-session.ts';
import type { TtsSession, TtsTransport, VoiceSettings } from './types.ts';
import type { RetryPolicy } from './backoff.ts';

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

  async open(settings: VoiceSettings, signal?: AbortSignal): Promise<TtsSession> {
    const parsed = voiceSettingsSchema.strict().safeParse(settings);
    if (!parsed.success) throw new TypeError(`invalid voice settings: ${parsed.error.message}`);
    const format = parsed.data.format ?? 'pcm_s16le';
    if (format === 'wav')
      throw new TypeError(
        'the response-stream transport delivers raw audio: ask for pcm_s16le, mulaw or alaw, not wav',
      );
    const sample_rate = parsed.data.sample_rate ?? (format === 'pcm_s16le' ? 24000 : 8000);
    const session = new ResponseStreamSession(this.#client, this.#options, { ...parsed.data, format, sample_rate });
    signal?.addEventListener('abort', () => session.close(), { once: true });
    return session;
  }
}
