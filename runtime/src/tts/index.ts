// Public surface of the TTS session client: the interface, the transports, and the factory that
// picks a transport by configuration (a ws:// container, or a SageMaker endpoint over the
// bidirectional stream or the response-stream call). The environment contract that produces this
// configuration (KOKORO_URL, SAGEMAKER_ENDPOINT_NAME, TTS_TRANSPORT, ...) lives in ../config.ts.
import { SageMakerBidiTransport, type SageMakerBidiTransportOptions } from './sagemaker-bidi-transport.ts';
import {
  SageMakerResponseStreamTransport,
  type SageMakerResponseStreamTransportOptions,
} from './response-stream-transport.ts';
import type { TtsTransport } from './types.ts';
import { WebSocketTransport, type WebSocketTransportOptions } from './websocket-transport.ts';

export type { TtsEvent, TtsSession, TtsTransport, TransportErrorCode, VoiceSettings } from './types.ts';
export { TtsTransportError } from './types.ts';
export { WebSocketTransport, SageMakerBidiTransport, SageMakerResponseStreamTransport };
export type { WebSocketTransportOptions, SageMakerBidiTransportOptions, SageMakerResponseStreamTransportOptions };
export { Backoff, DEFAULT_RETRY_BUDGET_MS, sleep } from './retry.ts';
export type { BackoffOptions, RetryPolicy } from './retry.ts';

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
