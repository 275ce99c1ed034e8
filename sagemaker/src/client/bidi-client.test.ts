// The bidirectional-stream client on the wire, against a recording HTTP/2 peer: request headers,
// the signed outer / unsigned inner event layout, the signature chain (recomputed here with
// node:crypto from docs/design/sagemaker-contracts.md#event-signing, independently of @smithy/signature-v4), the end
// event, response decoding, a reset told apart from a clean end, and AWS error responses.
import { afterEach, describe, expect, test } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { constants, createServer } from 'node:http2';
import type { Http2Server, IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { NodeHttp2Handler } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { fromUtf8 } from '@smithy/util-utf8';
import { openBidiStream } from './bidi-client.ts';
import { SageMakerStreamError } from './errors.ts';
import { codec, encodeException, encodePayloadPart, readMessages } from './event-stream.ts';
import type { ResponseEvent } from './event-stream.ts';

const CREDS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-1',
};
let server: Http2Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An HTTP/2 peer that hands each stream to `onStream` (with the raw header list, pseudo-headers first). */
async function peer(
  onStream: (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, raw: string[]) => void,
): Promise<string> {
  server = createServer();
  server.on('stream', onStream);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

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
      credentials: CREDS,
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
      const key = hmac(hmac(hmac(hmac(`AWS4${CREDS.secretAccessKey}`, day), 'eu-west-1'), 'sagemaker'), 'aws4_request');
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
    const stream = await openBidiStream({ endpointName: 'e', region: 'us-east-1', endpoint: url, credentials: CREDS });
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
      credentials: CREDS,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SageMakerStreamError);
    expect(error).toMatchObject({
      code: 'ValidationError',
      status: 400,
      message: expect.stringContaining('not found'),
    });
  });
});

describe('the request on the wire against the official model', () => {
  /** Captures the request's raw header list and answers 200 with no events. */
  const capture = async () => {
    const seen: Array<Array<[string, string]>> = [];
    const url = await peer((stream, _headers, _flags, raw) => {
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
      seen.push(pairs);
      stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
      stream.on('data', () => {});
      stream.on('end', () => stream.end());
    });
    return { url, seen };
  };

  test('the host travels as :authority (no host header), signed under that name with the wire value', async () => {
    const { url, seen } = await capture();
    const { accessKeyId, secretAccessKey } = CREDS;
    const stream = await openBidiStream({
      endpointName: 'my-endpoint',
      region: 'eu-west-1',
      endpoint: url,
      credentials: { accessKeyId, secretAccessKey },
    });
    stream.end();
    for await (const _ of stream.responses);
    stream.close();
    const pairs = seen[0]!;
    const wire = Object.fromEntries(pairs);
    // The model: POST /endpoints/{EndpointName}/invocations-bidirectional-stream, restJson1 over h2.
    expect(Object.fromEntries(pairs.filter(([name]) => name.startsWith(':')))).toEqual({
      ':method': 'POST',
      ':path': '/endpoints/my-endpoint/invocations-bidirectional-stream',
      ':scheme': 'http',
      ':authority': new URL(url).host,
    });
    expect(pairs.map(([name]) => name).sort()).toEqual(
      [
        ':authority',
        ':method',
        ':path',
        ':scheme',
        'authorization',
        'content-type',
        'x-amz-content-sha256',
        'x-amz-date',
        'x-amzn-sagemaker-model-invocation-path',
      ].sort(),
    );
    expect(wire['x-amzn-sagemaker-model-invocation-path']).toBe('invocations-bidirectional-stream');
    // Recompute the request signature from the canonical request (SigV4, written out here with
    // node:crypto) over the values as they arrived: `:authority` is part of it.
    const m =
      /Credential=[^/]+\/(\d{8})\/eu-west-1\/sagemaker\/aws4_request, SignedHeaders=([^,]+), Signature=(\w+)$/.exec(
        wire.authorization!,
      )!;
    const signed = m[2]!.split(';');
    expect(signed).toEqual([
      ':authority',
      'content-type',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amzn-sagemaker-model-invocation-path',
    ]);
    const canonical = [
      'POST',
      '/endpoints/my-endpoint/invocations-bidirectional-stream',
      '',
      ...signed.map((name) => `${name}:${wire[name]}`),
      '',
      signed.join(';'),
      'STREAMING-AWS4-HMAC-SHA256-EVENTS',
    ].join('\n');
    const scope = `${m[1]}/eu-west-1/sagemaker/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', wire['x-amz-date'], scope, sha256hex(Buffer.from(canonical))].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, m[1]!), 'eu-west-1'), 'sagemaker'), 'aws4_request');
    expect(hmac(key, toSign).toString('hex')).toBe(m[3]);
  });

  test('why: NodeHttp2Handler hands headers to node:http2 as they are, and a host header displaces :authority', async () => {
    const { url, seen } = await capture();
    const { hostname, port, host } = new URL(url);
    for (const headers of [{ host }, {}] as Array<Record<string, string>>) {
      const handler = new NodeHttp2Handler({});
      const { response } = await handler.handle(
        new HttpRequest({ protocol: 'http:', hostname, port: Number(port), method: 'POST', path: '/p', headers }),
      );
      for await (const _ of response.body as AsyncIterable<unknown>);
      handler.destroy();
    }
    const names = (i: number) => seen[i]!.map(([name]) => name);
    expect(names(0)).toContain('host'); // given host: sent as a plain header ...
    expect(names(0)).not.toContain(':authority'); // ... and no :authority (what neither official SDK sends)
    expect(Object.fromEntries(seen[1]!)[':authority']).toBe(host); // neither: node derives it from the session
  });

  test('the optional headers are sent as given; the invoked variant is read from the response', async () => {
    const url = await peer((stream, headers) => {
      stream.respond({
        ':status': 200,
        'x-amzn-invoked-production-variant': String(headers['x-amzn-sagemaker-target-variant']),
      });
      stream.on('data', () => {});
      stream.on('end', () => stream.end());
    });
    const stream = await openBidiStream({
      endpointName: 'e',
      region: 'eu-west-1',
      endpoint: url,
      credentials: CREDS,
      targetVariant: 'blue-2',
      modelInvocationPath: 'v2/stream',
      modelQueryString: 'lang=en&voice=af%20heart',
    });
    expect(stream.invokedProductionVariant).toBe('blue-2');
    stream.close();
  });

  test('header values the model forbids are refused before anything is sent, naming the header', async () => {
    const { url, seen } = await capture();
    const open = (extra: Partial<Parameters<typeof openBidiStream>[0]>) =>
      openBidiStream({ endpointName: 'e', region: 'eu-west-1', endpoint: url, credentials: CREDS, ...extra });
    const cases: Array<[Partial<Parameters<typeof openBidiStream>[0]>, RegExp]> = [
      [
        { targetVariant: 'v'.repeat(64) },
        /X-Amzn-SageMaker-Target-Variant is 64 characters long, over the model's maximum of 63/,
      ],
      [{ targetVariant: '-blue' }, /X-Amzn-SageMaker-Target-Variant "-blue" does not match/],
      [{ targetVariant: '' }, /X-Amzn-SageMaker-Target-Variant "" does not match/],
      [
        { modelInvocationPath: '/invocations' },
        /X-Amzn-SageMaker-Model-Invocation-Path "\/invocations" .*\(no leading \/\)/,
      ],
      [{ modelInvocationPath: 'a//b' }, /X-Amzn-SageMaker-Model-Invocation-Path "a\/\/b" does not match/],
      [
        { modelInvocationPath: 'p'.repeat(101) },
        /Model-Invocation-Path is 101 characters long, over the model's maximum of 100/,
      ],
      [{ modelQueryString: 'a=b c' }, /X-Amzn-SageMaker-Model-Query-String "a=b c" does not match/],
      [{ modelQueryString: '=x' }, /Model-Query-String "=x" does not match/],
      [
        { modelQueryString: `a=${'x'.repeat(2047)}` },
        /Model-Query-String is 2049 characters long, over the model's maximum of 2048/,
      ],
      [{ endpointName: 'e'.repeat(64) }, /EndpointName \(the URI label\) is 64 characters long/],
      [{ endpointName: '_e' }, /EndpointName \(the URI label\) "_e" does not match/],
    ];
    for (const [extra, message] of cases) {
      await expect(open(extra)).rejects.toThrow(message);
      await expect(open(extra)).rejects.toBeInstanceOf(TypeError);
    }
    expect(seen).toHaveLength(0);
    // The limits themselves pass (lengths count code points, as Smithy's length trait does).
    const ok = await open({
      targetVariant: 'v'.repeat(63),
      modelInvocationPath: `a/b.c_d-${'p'.repeat(92)}`,
      modelQueryString: `a=${'%41'.repeat(682)}`,
    });
    ok.close();
    expect(seen).toHaveLength(1);
  });
});
