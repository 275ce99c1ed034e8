// The SageMaker streaming wire format on top of the AWS event-stream codec: PayloadPart events in
// both directions, ModelStreamError / InternalStreamFailure exceptions, and the signed outer
// messages that carry the client's events (docs/design/sagemaker-contracts.md#bidi-wire-format).
import { EventStreamCodec, getChunkedStream } from '@smithy/core/event-streams';
import type { Message, MessageHeaders } from '@smithy/core/event-streams';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export const codec = new EventStreamCodec(toUtf8, fromUtf8);
export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';
/** The payload hash of a streaming request whose events are signed one by one. */
export const STREAMING_PAYLOAD_HASH = 'STREAMING-AWS4-HMAC-SHA256-EVENTS';

export type DataType = 'UTF8' | 'BINARY';
export type CompletionState = 'PARTIAL' | 'COMPLETE';

export interface PayloadPart {
  bytes: Uint8Array;
  /** Absent means BINARY to the container. */
  dataType?: DataType;
  /** PARTIAL parts continue until a COMPLETE (or absent) one: one fragmented WebSocket message. */
  completionState?: CompletionState;
}

export type ResponseEvent =
  | ({ type: 'PayloadPart' } & PayloadPart)
  | { type: 'ModelStreamError'; message: string; errorCode: string | undefined }
  | { type: 'InternalStreamFailure'; message: string }
  /** Any other exception the service sends (for example a rejected event signature). */
  | { type: 'exception'; name: string; message: string };

const str = (value: string) => ({ type: 'string' as const, value });

/** The inner message of one PayloadPart event (request or response direction). */
export function encodePayloadPart(part: PayloadPart): Uint8Array {
  const headers: MessageHeaders = {
    ':event-type': str('PayloadPart'),
    ':message-type': str('event'),
    ':content-type': str('application/octet-stream'),
  };
  if (part.dataType) headers.DataType = str(part.dataType);
  if (part.completionState) headers.CompletionState = str(part.completionState);
  return codec.encode({ headers, body: part.bytes });
}

/** A modeled exception event (ModelStreamError, InternalStreamFailure, ...) with a JSON body. */
export function encodeException(name: string, body: Record<string, string>): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': str('exception'),
      ':exception-type': str(name),
      ':content-type': str('application/json'),
    },
    body: fromUtf8(JSON.stringify(body)),
  });
}

function header(message: Message, name: string): string | undefined {
  const value = message.headers[name];
  return value?.type === 'string' ? value.value : undefined;
}

/** Reads a PayloadPart from an inner message; null when it is not one. */
export function decodePayloadPart(message: Message): PayloadPart | null {
  if (header(message, ':message-type') !== 'event' || header(message, ':event-type') !== 'PayloadPart') return null;
  const dataType = header(message, 'DataType');
  const completionState = header(message, 'CompletionState');
  if (dataType !== undefined && dataType !== 'UTF8' && dataType !== 'BINARY')
    throw new Error(`PayloadPart has an unknown DataType ${dataType}`);
  if (completionState !== undefined && completionState !== 'PARTIAL' && completionState !== 'COMPLETE') {
    throw new Error(`PayloadPart has an unknown CompletionState ${completionState}`);
  }
  return { bytes: message.body, ...(dataType && { dataType }), ...(completionState && { completionState }) };
}

export function decodeResponseEvent(message: Message): ResponseEvent | null {
  const type = header(message, ':message-type');
  if (type === 'event') {
    const part = decodePayloadPart(message);
    return part && { type: 'PayloadPart', ...part };
  }
  const name = header(message, ':exception-type') ?? header(message, ':error-code') ?? 'UnknownError';
  let body: { Message?: string; message?: string; ErrorCode?: string } = {};
  try {
    body = JSON.parse(toUtf8(message.body)) as typeof body;
  } catch {
    body = { Message: toUtf8(message.body) || header(message, ':error-message') };
  }
  const text = body.Message ?? body.message ?? header(message, ':error-message') ?? name;
  if (name === 'ModelStreamError') return { type: 'ModelStreamError', message: text, errorCode: body.ErrorCode };
  if (name === 'InternalStreamFailure') return { type: 'InternalStreamFailure', message: text };
  return { type: 'exception', name, message: text };
}

/** Whole event-stream messages out of a byte stream (any chunking). */
export async function* readMessages(source: AsyncIterable<Uint8Array>): AsyncGenerator<Message> {
  for await (const chunk of getChunkedStream(source)) yield codec.decode(chunk);
}

/**
 * One message as PayloadParts of at most `maxBytes` each: a message that fits is one part without
 * CompletionState; a longer one is PARTIAL parts ending with a COMPLETE one, all of one DataType.
 */
export function splitPayload(bytes: Uint8Array, dataType: DataType | undefined, maxBytes = Infinity): PayloadPart[] {
  if (!(maxBytes >= 1)) throw new RangeError(`a PayloadPart holds at least 1 byte, not ${maxBytes}`);
  const typed = dataType ? { dataType } : {};
  if (bytes.byteLength <= maxBytes) return [{ bytes, ...typed }];
  const parts: PayloadPart[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += maxBytes) {
    const last = offset + maxBytes >= bytes.byteLength;
    parts.push({
      bytes: bytes.subarray(offset, offset + maxBytes),
      ...typed,
      completionState: last ? 'COMPLETE' : 'PARTIAL',
    });
  }
  return parts;
}
