// Server-side SigV4 checks of the local router, on requests signed the way the SDK signs them.
import { describe, expect, test } from '@jest/globals';
import { HttpRequest } from '@smithy/protocol-http';
import { fromUtf8 } from '@smithy/util-utf8';
import { createSigner } from '../client/index.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { SignatureError, verifyRequest } from './verify.ts';

const PATH = '/endpoints/kokoro/invocations-response-stream';
async function signed(options: { secret?: string; accessKeyId?: string; body?: Uint8Array; date?: Date } = {}) {
  const signer = createSigner(
    {
      accessKeyId: options.accessKeyId ?? LOCAL_CREDENTIALS.accessKeyId,
      secretAccessKey: options.secret ?? LOCAL_CREDENTIALS.secretAccessKey,
    },
    'us-east-1',
  );
  const request = await signer.sign(
    new HttpRequest({
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 9000,
      path: PATH,
      headers: { host: '127.0.0.1:9000', 'content-type': 'application/json' },
      body: options.body ?? fromUtf8('{"text":"hi"}'),
    }),
    { signingDate: options.date ?? new Date() },
  );
  return {
    method: 'POST',
    path: PATH,
    headers: request.headers as Record<string, string>,
    body: request.body as Uint8Array,
  };
}
const rejects = (promise: Promise<unknown>, code: SignatureError['code'], message: RegExp) =>
  expect(promise).rejects.toMatchObject({ name: 'SignatureError', code, message: expect.stringMatching(message) });

describe('verifyRequest', () => {
  test('accepts a correctly signed request and returns the signature that starts the event chain', async () => {
    const request = await signed();
    const verified = await verifyRequest(request, [LOCAL_CREDENTIALS]);
    expect(request.headers.authorization).toContain(`Signature=${verified.signature}`);
    expect(verified.region).toBe('us-east-1');
  });

  test('rejects a wrong secret, an unknown key, a changed body or header, a stale date, a missing header', async () => {
    await rejects(
      verifyRequest(await signed({ secret: 'wrong' }), [LOCAL_CREDENTIALS]),
      'InvalidSignatureException',
      /does not match/,
    );
    await rejects(
      verifyRequest(await signed({ accessKeyId: 'AKIAOTHER' }), [LOCAL_CREDENTIALS]),
      'UnrecognizedClientException',
      /unknown access key/,
    );
    await rejects(
      verifyRequest({ ...(await signed()), body: fromUtf8('{"text":"bye"}') }, [LOCAL_CREDENTIALS]),
      'InvalidSignatureException',
      /does not match the body/,
    );
    const { 'x-amz-content-sha256': _hash, ...noHashHeader } = (await signed()).headers;
    expect(noHashHeader.authorization).toContain('x-amz-content-sha256'); // signed: dropping it must fail too
    await rejects(
      verifyRequest({ ...(await signed()), headers: noHashHeader, body: fromUtf8('{"text":"bye"}') }, [
        LOCAL_CREDENTIALS,
      ]),
      'IncompleteSignatureException',
      /x-amz-content-sha256 is missing/,
    );
    await rejects(
      verifyRequest({ ...(await signed()), body: undefined, streaming: true } as never, [LOCAL_CREDENTIALS]),
      'InvalidSignatureException',
      /STREAMING/,
    );
    const request = await signed();
    await rejects(
      verifyRequest({ ...request, headers: { ...request.headers, 'content-type': 'text/plain' } }, [LOCAL_CREDENTIALS]),
      'InvalidSignatureException',
      /does not match/,
    );
    await rejects(
      verifyRequest(await signed({ date: new Date(Date.now() - 10 * 60_000) }), [LOCAL_CREDENTIALS]),
      'InvalidSignatureException',
      /expired/,
    );
    const { authorization: _, ...unsigned } = request.headers;
    await rejects(
      verifyRequest({ ...request, headers: unsigned }, [LOCAL_CREDENTIALS]),
      'IncompleteSignatureException',
      /Authorization/,
    );
    const { 'content-type': __, ...missing } = request.headers;
    await rejects(
      verifyRequest({ ...request, headers: missing }, [LOCAL_CREDENTIALS]),
      'IncompleteSignatureException',
      /content-type is missing/,
    );
  });
});

describe('verifyRequest: the host signed as the official SDKs sign it over HTTP/2', () => {
  const HOST = '127.0.0.1:9000';
  /** Signs with the given headers, then puts on the wire the headers `wire` makes of the signed ones. */
  async function h2Request(headers: Record<string, string>, wire = (h: Record<string, string>) => h) {
    const request = await createSigner(LOCAL_CREDENTIALS, 'us-east-1').sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'https:',
        hostname: '127.0.0.1',
        path: PATH,
        headers: { 'content-type': 'application/json', ...headers },
        body: fromUtf8('{"text":"hi"}'),
      }),
      { signingDate: new Date(), signableHeaders: new Set(['user-agent']) },
    );
    return { method: 'POST', path: PATH, headers: wire(request.headers as Record<string, string>), body: request.body };
  }

  test('a signed :authority (the JavaScript SDK) is checked against :authority', async () => {
    const request = await h2Request({ ':authority': HOST });
    expect(request.headers.authorization).toContain('SignedHeaders=:authority;content-type;');
    await expect(verifyRequest(request, [LOCAL_CREDENTIALS])).resolves.toMatchObject({ region: 'us-east-1' });
    await rejects(
      verifyRequest({ ...request, headers: { ...request.headers, ':authority': 'other.example:9000' } }, [
        LOCAL_CREDENTIALS,
      ]),
      'InvalidSignatureException',
      /does not match/,
    );
    const { ':authority': _, ...gone } = request.headers;
    await rejects(
      verifyRequest({ ...request, headers: gone }, [LOCAL_CREDENTIALS]),
      'IncompleteSignatureException',
      /signed header :authority is missing/,
    );
  });

  test('a signed host sent as :authority (the Python SDK) is checked against :authority', async () => {
    const request = await h2Request({ host: HOST }, ({ host, ...rest }) => ({ ...rest, ':authority': host! }));
    expect(request.headers.host).toBeUndefined();
    await expect(verifyRequest(request, [LOCAL_CREDENTIALS])).resolves.toBeDefined();
    await rejects(
      verifyRequest({ ...request, headers: { ...request.headers, ':authority': 'other.example:9000' } }, [
        LOCAL_CREDENTIALS,
      ]),
      'InvalidSignatureException',
      /does not match/,
    );
  });

  test('every header the client listed is signed, even one SigV4 skips by default; a request without a signed host is incomplete', async () => {
    const listed = await h2Request({ ':authority': HOST, 'user-agent': 'x/1' });
    expect(listed.headers.authorization).toContain(';user-agent;');
    await expect(verifyRequest(listed, [LOCAL_CREDENTIALS])).resolves.toBeDefined();
    const hostless = await h2Request({});
    await rejects(verifyRequest(hostless, [LOCAL_CREDENTIALS]), 'IncompleteSignatureException', /host must be signed/);
  });
});
