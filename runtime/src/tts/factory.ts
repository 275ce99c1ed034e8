// Picks a transport by configuration: a ws:// container (KOKORO_URL) or a SageMaker endpoint over
// the bidirectional stream (default) or the response-stream call (SAGEMAKER_TRANSPORT).
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
import type { SageMakerBidiTransportOptions } from './sagemaker-bidi-transport.ts';
import { SageMakerResponseStreamTransport } from './response-stream-transport.ts';
import type { SageMakerResponseStreamTransportOptions } from './response-stream-transport.ts';
import type { TtsTransport } from './types.ts';
import { WebSocketTransport } from './websocket-transport.ts';
import type { WebSocketTransportOptions } from './websocket-transport.ts';

export type TransportConfig =
  | ({ kind: 'websocket' } & WebSocketTransportOptions)
  | ({ kind: 'sagemaker-bidi' } & SageMakerBidiTransportOptions)
  | ({ kind: 'sagemaker-response-stream' } & SageMakerResponseStreamTransportOptions);

export function createTransport(config: TransportConfig): TtsTransport {
  switch (config.kind) {
    case 'websocket':
      return new WebSocketTransport(config);
    case 'sagemaker-bidi':
      return new SageMakerBidiTransport(config);
    case 'sagemaker-response-stream':
      return new SageMakerResponseStreamTransport(config);
    default:
      throw new TypeError(`unknown transport kind ${JSON.stringify((config as { kind: unknown }).kind)}`);
  }
}

/**
 * Reads the transport from the environment: `KOKORO_URL` (ws:// of a container) or
 * `SAGEMAKER_ENDPOINT_NAME` + `AWS_REGION` (or AWS_DEFAULT_REGION), with optional
 * `SAGEMAKER_TRANSPORT` (bidi | response-stream; default bidi), `SAGEMAKER_RUNTIME_URL` (e.g. the
 * local router) and `SAGEMAKER_TARGET_VARIANT`. Credentials: `credentials` if given, else the AWS
 * SDK default provider chain.
 */
export function transportConfigFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider,
): TransportConfig {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const url = value('KOKORO_URL');
  const endpointName = value('SAGEMAKER_ENDPOINT_NAME');
  if (url && endpointName) throw new TypeError('set KOKORO_URL (direct container) or SAGEMAKER_ENDPOINT_NAME (SageMaker), not both');
  if (url) return { kind: 'websocket', url };
  if (!endpointName) throw new TypeError('no TTS endpoint configured: set KOKORO_URL=ws://host:port or SAGEMAKER_ENDPOINT_NAME and AWS_REGION');
  const region = value('AWS_REGION') ?? value('AWS_DEFAULT_REGION');
  if (!region) throw new TypeError('SAGEMAKER_ENDPOINT_NAME needs AWS_REGION (or AWS_DEFAULT_REGION)');
  const mode = value('SAGEMAKER_TRANSPORT') ?? 'bidi';
  if (mode !== 'bidi' && mode !== 'response-stream') {
    throw new TypeError(`SAGEMAKER_TRANSPORT must be bidi or response-stream, got ${JSON.stringify(mode)}`);
  }
  const endpoint = value('SAGEMAKER_RUNTIME_URL');
  const targetVariant = value('SAGEMAKER_TARGET_VARIANT');
  const common = {
    endpointName,
    region,
    ...(endpoint && { endpoint }),
    ...(targetVariant && { targetVariant }),
    ...(credentials && { credentials }),
  };
  return mode === 'bidi' ? { kind: 'sagemaker-bidi', ...common } : { kind: 'sagemaker-response-stream', ...common };
}
