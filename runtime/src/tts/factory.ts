// Picks a transport by configuration: a ws:// container or a SageMaker endpoint over the
// bidirectional stream or the response-stream call. The environment contract that produces this
// configuration (KOKORO_URL, SAGEMAKER_ENDPOINT_NAME, TTS_TRANSPORT, ...) lives in ../config.ts.
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
