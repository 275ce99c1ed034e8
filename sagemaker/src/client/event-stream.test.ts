// The PayloadPart / exception layer over the event-stream codec, message by message.
import { describe, expect, test } from '@jest/globals';
import { fromUtf8 } from '@smithy/util-utf8';
import {
  codec,
  decodePayloadPart,
  decodeResponseEvent,
  encodeException,
  encodePayloadPart,
  readMessages,
} from './event-stream.ts';

const decode = (bytes: Uint8Array) => codec.decode(bytes);

describe('SageMaker event-stream messages', () => {
  test('PayloadPart round trip keeps bytes, DataType and CompletionState; absent fields stay absent', () => {
    const part = { bytes: fromUtf8('{"type":"text"}'), dataType: 'UTF8' as const, completionState: 'PARTIAL' as const };
    expect(decodePayloadPart(decode(encodePayloadPart(part)))).toEqual(part);
    expect(decodePayloadPart(decode(encodePayloadPart({ bytes: new Uint8Array([7]) })))).toEqual({
      bytes: new Uint8Array([7]),
    });
  });

  test('unknown DataType or CompletionState values are errors, other event types are not PayloadParts', () => {
    const bad = codec.encode({
      headers: {
        ':message-type': { type: 'string', value: 'event' },
        ':event-type': { type: 'string', value: 'PayloadPart' },
        DataType: { type: 'string', value: 'JSON' },
      },
      body: new Uint8Array(1),
    });
    expect(() => decodePayloadPart(decode(bad))).toThrow(/unknown DataType JSON/);
    const other = codec.encode({
      headers: {
        ':message-type': { type: 'string', value: 'event' },
        ':event-type': { type: 'string', value: 'Other' },
      },
      body: new Uint8Array(0),
    });
    expect(decodePayloadPart(decode(other))).toBeNull();
  });

  test('exceptions decode to ModelStreamError, InternalStreamFailure or a named exception', () => {
    expect(
      decodeResponseEvent(decode(encodeException('ModelStreamError', { Message: 'closed', ErrorCode: 'X' }))),
    ).toEqual({ type: 'ModelStreamError', message: 'closed', errorCode: 'X' });
    expect(decodeResponseEvent(decode(encodeException('InternalStreamFailure', { Message: 'oops' })))).toEqual({
      type: 'InternalStreamFailure',
      message: 'oops',
    });
    expect(decodeResponseEvent(decode(encodeException('InvalidSignatureException', { message: 'bad sig' })))).toEqual({
      type: 'exception',
      name: 'InvalidSignatureException',
      message: 'bad sig',
    });
  });

  test('readMessages re-assembles messages split anywhere across chunks', async () => {
    const bytes = Buffer.concat([
      encodePayloadPart({ bytes: fromUtf8('a') }),
      encodePayloadPart({ bytes: new Uint8Array(300) }),
      encodeException('ModelStreamError', { Message: 'm' }),
    ]);
    const chunks = async function* () {
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    };
    const messages = [];
    for await (const message of readMessages(chunks())) messages.push(decodeResponseEvent(message)?.type);
    expect(messages).toEqual(['PayloadPart', 'PayloadPart', 'ModelStreamError']);
  });
});
