// Public surface of the TTS session client: the interface, the transports and the factory.
export type { TtsEvent, TtsSession, TtsTransport, TransportErrorCode, VoiceSettings } from './types.ts';
export { TtsTransportError } from './types.ts';
export { WebSocketTransport } from './websocket-transport.ts';
export type { WebSocketTransportOptions } from './websocket-transport.ts';
export { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
export type { SageMakerBidiTransportOptions } from './sagemaker-bidi-transport.ts';
export { SageMakerResponseStreamTransport } from './response-stream-transport.ts';
export type { SageMakerResponseStreamTransportOptions } from './response-stream-transport.ts';
export { createTransport } from './factory.ts';
export type { TransportConfig } from './factory.ts';
export { Backoff, DEFAULT_RETRY_BUDGET_MS, sleep } from './backoff.ts';
export type { BackoffOptions, RetryPolicy } from './backoff.ts';
