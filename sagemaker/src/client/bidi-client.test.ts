// The bidirectional-stream client on the wire, against a recording HTTP/2 peer: request headers,
// the signed outer / unsigned inner event layout, the signature chain (recomputed here with
// node:crypto from docs/design/sagemaker-contracts.md#event-signing, independently of @smithy/signature-v4), the end
// event, response decoding, a reset told apart from a clean end, and AWS error responses. The
// request's headers against the official model: bidi-client-request.test.ts.
import { describe, expect, test } from '@jest/globals';
import { constants, type IncomingHttpHeaders } from 'node:http2';
import { fromUtf8 } from '@smithy/util-utf8';
import { hmac, sha256hex, suitePeers, TEST_CREDENTIALS } from '../testing/http2-peer.ts';
import { openBidiStream } from './bidi-client.ts';
import { SageMakerStreamError } from './errors.ts';
import { codec, encodeException, encodePayloadPart, readMessages } from './event-stream.ts';
import type { ResponseEvent } from './event-stream.ts';

const peer = suitePeers();

describe('openBidiStream on the wire', () => {
  test('signs the request and chains a signature over every event, ending with a signed empty event', async () => {
    let headers: IncomingHttpHeaders = {};
    const body: Buffer[] = [];
    const { promise: received, resolve: done } = Promise.withResolvers<void>();
    const url = await peer((stream, h) => {
      headers = h;
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.on('data', (chunk: Buffer) => body.push(chunk));
      stream.on('end', () => {
        stream.end();
        done();
      });
    });
    const stream = await openBidiStream({
      endpointName: 'my-endpoint',
      region: 'eu-west-1',
      endpoint: url,
      credentials: TEST_CREDENTIALS,
      targetVariant: 'blue',
    });
    stream.send({ bytes: fromUtf8('{"type":"config"}'), dataType: 'UTF8' });
    stream.send({ bytes: new Uint8Array([1, 2, 3]), dataType: 'BINARY', completionState: 'PARTIAL' });
    stream.end();
    await received;
    stream.close();

    expect(headers[':path']).toBe('/endpoints/my-endpoint/invocations-bidirectional-stream');
    expect(headers['content-type']).toBe('application/vnd.amazon.eventstream');
    expect(headers['x-amz-content-sha256']).toBe('STREAMING-AWS4-HMAC-SHA256-EVENTS');
    expect(headers['x-amz-security-token']).toBe('session-token-1');
    expect(headers['x-amzn-sagemaker-target-variant']).toBe('blue');
    expect(headers['content-length']).toBeUndefined();
    const amzDate = String(headers['x-amz-date']);
    const auth =
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/(\d{8})\/eu-west-1\/sagemaker\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
        String(headers.authorization),
      );
    expect(auth).not.toBeNull();
    expect(auth![1]).toBe(amzDate.slice(0, 8));
    // The host is signed as `:authority`, as the official JavaScript client signs it over HTTP/2
    // (this list named `host` until the request was held against that client: issue 10).
    expect(auth![2]!.split(';')).toEqual(
      expect.arrayContaining([
        ':authority',
        'content-type',
        'x-amz-content-sha256',
        'x-amz-date',
        'x-amz-security-token',
      ]),
    );

    const outer = [];
    for await (const message of readMessages(
      (async function* () {
        yield Buffer.concat(body);
      })(),
    ))
      outer.push(message);
    expect(outer).toHaveLength(3);
    let prior = auth![3]!;
    for (const message of outer) {
      expect(Object.keys(message.headers).sort()).toEqual([':chunk-signature', ':date']);
      const date = message.headers[':date']!;
      const signature = message.headers[':chunk-signature']!;
      expect(date.type).toBe('timestamp');
      expect(signature.type).toBe('binary');
      // Recompute: signing key for that event's date, string to sign per docs/design/sagemaker-contracts.md#event-signing.
      const when = date.value as Date;
      const iso = when
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
      const day = iso.slice(0, 8);
      const key = hmac(
        hmac(hmac(hmac(`AWS4${TEST_CREDENTIALS.secretAccessKey}`, day), 'eu-west-1'), 'sagemaker'),
        'aws4_request',
      );
      const dateHeader = Buffer.alloc(1 + 5 + 1 + 8);
      dateHeader.writeUInt8(5, 0);
      dateHeader.write(':date', 1, 'ascii');
      dateHeader.writeUInt8(8, 6); // timestamp
      dateHeader.writeBigInt64BE(BigInt(when.getTime()), 7);
      const toSign = [
        'AWS4-HMAC-SHA256-PAYLOAD',
        iso,
        `${day}/eu-west-1/sagemaker/aws4_request`,
        prior,
        sha256hex(dateHeader),
        sha256hex(message.body),
      ].join('\n');
      const expected = hmac(key, toSign).toString('hex');
      expect(Buffer.from(signature.value as Uint8Array).toString('hex')).toBe(expected);
      prior = expected;
    }
    const inner = outer.slice(0, 2).map((m) => codec.decode(m.body));
    const strings = (h: Record<string, { type: string; value: unknown }>) =>
      Object.fromEntries(Object.entries(h).map(([k, v]) => [k, v.value]));
    expect(strings(inner[0]!.headers)).toEqual({
      ':event-type': 'PayloadPart',
      ':message-type': 'event',
      ':content-type': 'application/octet-stream',
      DataType: 'UTF8',
    });
    expect(Buffer.from(inner[0]!.body).toString()).toBe('{"type":"config"}');
    expect(strings(inner[1]!.headers)).toMatchObject({ DataType: 'BINARY', CompletionState: 'PARTIAL' });
    expect([...inner[1]!.body]).toEqual([1, 2, 3]);
    expect(outer[2]!.body.byteLength).toBe(0);
  });

  const resetAfter = (withException: boolean) =>
    peer((stream) => {
      stream.on('error', () => {}); // the reset below also errors the server's side
      stream.respond({ ':status': 200 });
      stream.write(encodePayloadPart({ bytes: fromUtf8('{"type":"ready"}'), dataType: 'UTF8' }));
      const audio = encodePayloadPart({ bytes: new Uint8Array(10), dataType: 'BINARY' });
      stream.write(audio.subarray(0, 7)); // event boundaries need not match DATA frames
      stream.write(audio.subarray(7));
      if (withException) stream.write(encodeException('ModelStreamError', { Message: 'boom', ErrorCode: 'E1' }));
      setTimeout(() => stream.close(constants.NGHTTP2_INTERNAL_ERROR), 20);
    });
  const drain = async (events: ResponseEvent[], url: string) => {
    const stream = await openBidiStream({
      endpointName: 'e',
      region: 'us-east-1',
      endpoint: url,
      credentials: TEST_CREDENTIALS,
    });
    try {
      for await (const event of stream.responses) events.push(event);
    } finally {
      stream.close();
    }
  };

  test('decodes PayloadParts and modeled errors; the exception explains the end', async () => {
    const events: ResponseEvent[] = [];
    await drain(events, await resetAfter(true));
    expect(events.map((e) => e.type)).toEqual(['PayloadPart', 'PayloadPart', 'ModelStreamError']);
    expect(events[1]).toMatchObject({ dataType: 'BINARY', bytes: new Uint8Array(10) });
    expect(events[2]).toEqual({ type: 'ModelStreamError', message: 'boom', errorCode: 'E1' });
  });

  test('a reset is reported, not taken for a clean end', async () => {
    const events: ResponseEvent[] = [];
    await expect(drain(events, await resetAfter(false))).rejects.toMatchObject({ code: 'StreamReset' });
    expect(events.map((e) => e.type)).toEqual(['PayloadPart', 'PayloadPart']);
  });

  test('an AWS error response becomes a SageMakerStreamError with code and status', async () => {
    const url = await peer((stream) => {
      stream.respond({
        ':status': 400,
        'x-amzn-errortype': 'ValidationError:http://internal.amazon.com/coral/',
        'content-type': 'application/json',
      });
      stream.end(JSON.stringify({ message: 'Endpoint e of account 1 not found.' }));
    });
    const error = await openBidiStream({
      endpointName: 'e',
      region: 'us-east-1',
      endpoint: url,
      credentials: TEST_CREDENTIALS,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SageMakerStreamError);
    expect(error).toMatchObject({
      code: 'ValidationError',
      status: 400,
      message: expect.stringContaining('not found'),
    });
  });
});
