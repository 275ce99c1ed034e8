// Server-side SigV4 checks for the local router: the request's Authorization header, and the
// chained signature of every event of a bidirectional stream. Expected signatures are computed
// with the same @smithy/signature-v4 the client signs with, fed exactly the headers the client
// listed in SignedHeaders, with their values as they arrived.
//
// The host may be signed either way the official SDKs sign it over HTTP/2: as `:authority` (the
// JavaScript SDK: its host-header middleware replaces `host` by `:authority` before signing) or as
// `host` (the Python SDK, whose HTTP/2 layer then sends it as `:authority`). A signed `host` is
// checked against the `host` header if one arrived, else against `:authority`; a signed
// `:authority` against `:authority`. One of the two must be signed, as SigV4 requires of the host.
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpRequest } from '@smithy/protocol-http';
import type { Message } from '@smithy/core/event-streams';
import type { AwsCredentialIdentity } from '@smithy/types';
import { STREAMING_PAYLOAD_HASH } from '../client/index.ts';
import { createSigner, SIGNING_SERVICE } from '../client/index.ts';
import { KokoroError } from '@kokoro-speech/protocol/errors';

/** A rejected signature; `code` is the AWS error type the router answers with (HTTP 403). */
export class SignatureError extends KokoroError<
  'InvalidSignatureException' | 'UnrecognizedClientException' | 'IncompleteSignatureException'
> {
  constructor(code: SignatureError['code'], message: string) {
    super(code, message, { status: 403 });
  }
}

export interface SignedRequest {
  method: string;
  /** The path and query exactly as received. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body, when its hash is part of the signature (not for streaming requests). */
  body?: Uint8Array;
  /** An event stream whose events are signed one by one (x-amz-content-sha256 must say so). */
  streaming?: boolean;
}

export interface VerifiedRequest {
  signature: string;
  region: string;
  credentials: AwsCredentialIdentity;
  /** The signing name checked (default sagemaker); the events are signed for it too. */
  service?: string;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;_.:-]+), ?Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 5 * 60_000;

function same(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function parseAmzDate(value: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m)
    throw new SignatureError(
      'IncompleteSignatureException',
      `x-amz-date ${JSON.stringify(value)} is not an ISO 8601 basic date`,
    );
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

export async function verifyRequest(
  request: SignedRequest,
  known: AwsCredentialIdentity[],
  now = Date.now(),
  /** The signing name the credential scope must carry (other AWS services' stand-ins reuse this). */
  expectedService = SIGNING_SERVICE,
): Promise<VerifiedRequest> {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const match = AUTH.exec(header('authorization') ?? '');
  if (!match)
    throw new SignatureError(
      'IncompleteSignatureException',
      'missing or malformed AWS4-HMAC-SHA256 Authorization header',
    );
  const [, accessKeyId, day, region, service, signedHeaders, signature] = match as unknown as string[];
  const credentials = known.find((c) => c.accessKeyId === accessKeyId);
  if (!credentials)
    throw new SignatureError(
      'UnrecognizedClientException',
      `the security token included in the request is invalid (unknown access key ${accessKeyId})`,
    );
  if (service !== expectedService)
    throw new SignatureError(
      'InvalidSignatureException',
      `credential scope names service ${service}, expected ${expectedService}`,
    );
  const amzDate = header('x-amz-date') ?? '';
  const date = parseAmzDate(amzDate);
  if (amzDate.slice(0, 8) !== day)
    throw new SignatureError('InvalidSignatureException', 'credential scope date does not match x-amz-date');
  if (Math.abs(now - date.getTime()) > MAX_SKEW_MS)
    throw new SignatureError(
      'InvalidSignatureException',
      'signature expired: x-amz-date is more than 5 minutes from the server time',
    );
  // The payload hash header is signed, so it must match what it stands for.
  const payloadHash = header('x-amz-content-sha256');
  if (request.streaming && payloadHash !== STREAMING_PAYLOAD_HASH) {
    throw new SignatureError(
      'InvalidSignatureException',
      `a bidirectional stream must be signed with x-amz-content-sha256: ${STREAMING_PAYLOAD_HASH}`,
    );
  }
  if (
    request.body &&
    payloadHash !== undefined &&
    payloadHash !== createHash('sha256').update(request.body).digest('hex')
  ) {
    throw new SignatureError('InvalidSignatureException', 'x-amz-content-sha256 does not match the body');
  }
  const names = signedHeaders!.split(';');
  if (!names.includes('host') && !names.includes(':authority'))
    throw new SignatureError(
      'IncompleteSignatureException',
      'the host must be signed: SignedHeaders must include host (or, over HTTP/2, :authority)',
    );
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = name === 'host' ? (header('host') ?? header(':authority')) : header(name);
    if (value === undefined)
      throw new SignatureError('IncompleteSignatureException', `signed header ${name} is missing`);
    headers[name] = value;
  }
  const host = headers[':authority'] ?? headers.host!;
  const [path, query = ''] = request.path.split('?', 2) as [string, string?];
  const expected = await createSigner(credentials, region!, expectedService).sign(
    new HttpRequest({
      method: request.method,
      protocol: 'https:',
      hostname: host.replace(/:\d+$/, ''),
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
      ...(request.body && { body: request.body }),
    }),
    // Sign what the client listed, even a header SigV4 signers skip by default (user-agent, say).
    { signingDate: date, signableHeaders: new Set(names) },
  );
  const computed = /Signature=([0-9a-f]{64})$/.exec(String(expected.headers.authorization))?.[1] ?? '';
  if (
    !same(computed, signature!) ||
    !String(expected.headers.authorization).includes(`SignedHeaders=${signedHeaders}`)
  ) {
    throw new SignatureError(
      'InvalidSignatureException',
      'the request signature we calculated does not match the signature you provided',
    );
  }
  return { signature: signature!, region: region!, credentials, service: expectedService };
}

/** Verifies the chain of signed events of one stream; returns each event's inner payload. */
export class EventVerifier {
  #prior: string;
  readonly #signer;

  constructor(verified: VerifiedRequest) {
    this.#prior = verified.signature;
    this.#signer = createSigner(verified.credentials, verified.region, verified.service);
  }

  async verify(outer: Message): Promise<Uint8Array> {
    const date = outer.headers[':date'];
    const chunkSignature = outer.headers[':chunk-signature'];
    if (date?.type !== 'timestamp' || chunkSignature?.type !== 'binary') {
      throw new SignatureError('IncompleteSignatureException', 'event is missing its :date or :chunk-signature header');
    }
    const { signature } = await this.#signer.sign(
      { message: { headers: { ':date': date }, body: outer.body }, priorSignature: this.#prior },
      { signingDate: date.value },
    );
    if (!same(signature, Buffer.from(chunkSignature.value).toString('hex'))) {
      throw new SignatureError(
        'InvalidSignatureException',
        'event signature does not match (wrong key, tampered event, or broken chain)',
      );
    }
    this.#prior = signature;
    return outer.body;
  }
}
