// Public surface of the SageMaker streaming client: InvokeEndpointWithBidirectionalStream over a
// signed HTTP/2 event stream, its wire format and its errors.
export { openBidiStream, resolveCredentials } from './bidi-client.ts';
export type { BidiStream, BidiStreamOptions } from './bidi-client.ts';
export { SageMakerStreamError, parseErrorResponse } from './errors.ts';
export {
  codec,
  decodePayloadPart,
  decodeResponseEvent,
  encodeException,
  encodePayloadPart,
  EVENT_STREAM_CONTENT_TYPE,
  readMessages,
  STREAMING_PAYLOAD_HASH,
} from './event-stream.ts';
export type { CompletionState, DataType, PayloadPart, ResponseEvent } from './event-stream.ts';
export { createSigner, runtimeEndpoint, SIGNING_SERVICE } from './signing.ts';
