// Public surface of the SageMaker streaming client: InvokeEndpointWithBidirectionalStream over a
// signed HTTP/2 event stream, its wire format, its input constraints, endpoints and errors.
export { checkBidiStreamOptions, openBidiStream, resolveCredentials } from './bidi-client.ts';
export type { BidiStream, BidiStreamOptions } from './bidi-client.ts';
export { BIDI_INPUT_CONSTRAINTS, checkBidiInput, DEFAULT_MODEL_INVOCATION_PATH } from './bidi-input.ts';
export type { BidiInput, InputViolation } from './bidi-input.ts';
export { BIDI_PARTITIONS, regionPartition, runtimeEndpoint } from './endpoint.ts';
export type { EndpointVariant } from './endpoint.ts';
export { SageMakerStreamError, parseErrorResponse } from './errors.ts';
export {
  codec,
  decodePayloadPart,
  decodeResponseEvent,
  encodeException,
  encodePayloadPart,
  EVENT_STREAM_CONTENT_TYPE,
  readMessages,
  splitPayload,
  STREAMING_PAYLOAD_HASH,
} from './event-stream.ts';
export type { CompletionState, DataType, PayloadPart, ResponseEvent } from './event-stream.ts';
export { createSigner, SIGNING_SERVICE } from './signing.ts';
