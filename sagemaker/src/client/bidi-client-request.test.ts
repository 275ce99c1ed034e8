// The client's request on the wire against the official service model: the host as :authority
// (and why a host header would displace it), optional headers sent as given, header values the
// model forbids refused before anything is sent. Signatures recomputed with node:crypto.
import { describe, expect, test } from '@jest/globals';
import { NodeHttp2Handler } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { hmac, sha256hex, suitePeers, TEST_CREDENTIALS } from '../testing/http2-peer.ts';
import { openBidiStream } from './bidi-client.ts';

const peer = suitePeers();

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
    const { accessKeyId, secretAccessKey } = TEST_CREDENTIALS;
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
      credentials: TEST_CREDENTIALS,
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
      openBidiStream({
        endpointName: 'e',
        region: 'eu-west-1',
        endpoint: url,
        credentials: TEST_CREDENTIALS,
        ...extra,
      });
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
