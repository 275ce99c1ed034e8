// A client for SageMaker's InvokeEndpointWithBidirectionalStream (the official one is not on the npm
// registry: docs/design/sagemaker-contracts.md#sources), built from the SDK's own pieces: SigV4 request signing and
// chained event signing (@smithy/signature-v4 through @aws-sdk/eventstream-handler-node), the
// event-stream codec, and NodeHttp2Handler as the HTTP/2 transport. NodeHttp2Handler is used rather
// than node:http2 directly because it is what the SDK's own bidirectional clients run on (TLS and
// session handling, abort, one isolated session per event stream, h2c by prior knowledge for an
// http:// endpoint); what it lacks (telling a reset from a clean end) is checked below.
//
// The request has the shape of the official generated JavaScript client's
// (@aws-sdk/client-sagemaker-runtime-http2): the host travels as the HTTP/2 `:authority`
// pseudo-header and is signed under that name, with no `host` header (NodeHttp2Handler hands
// headers to node:http2 as they are, and node sends a `host` header instead of `:authority` when
// given one: checked on the wire in bidi-client.test.ts).
import { PassThrough } from 'node:stream';
import type { ClientHttp2Stream } from 'node:http2';
import { eventStreamPayloadHandlerProvider } from '@aws-sdk/eventstream-handler-node';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { NodeHttp2Handler } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import type { HttpResponse } from '@smithy/protocol-http';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import {
  EVENT_STREAM_CONTENT_TYPE,
  STREAMING_PAYLOAD_HASH,
  decodeResponseEvent,
  encodePayloadPart,
  readMessages,
} from './event-stream.ts';
import type { PayloadPart, ResponseEvent } from './event-stream.ts';
import { SageMakerStreamError, parseErrorResponse } from './errors.ts';
import { checkBidiInput, DEFAULT_MODEL_INVOCATION_PATH } from './bidi-input.ts';
import { runtimeEndpoint } from './endpoint.ts';
import type { EndpointVariant } from './endpoint.ts';
import { createSigner } from './signing.ts';

export interface BidiStreamOptions extends EndpointVariant {
  endpointName: string;
  region: string;
  /**
   * Runtime URL; default the region's, per the model's endpoint rules
   * (https://runtime.sagemaker.<region>.<dnsSuffix>:8443). http:// = h2c (the local router).
   */
  endpoint?: string;
  /** Default: the SDK's default provider chain, resolved once so a stream is signed with one set. */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** X-Amzn-SageMaker-Target-Variant (<= 63 characters, a letter or digit first). */
  targetVariant?: string;
  /**
   * X-Amzn-SageMaker-Model-Invocation-Path: the container's WebSocket path, without a leading `/`
   * (<= 100 characters). Default `invocations-bidirectional-stream`, always sent.
   */
  modelInvocationPath?: string;
  /** X-Amzn-SageMaker-Model-Query-String: `k=v&k2=v2`, percent-encoded (<= 2048 characters). */
  modelQueryString?: string;
  signal?: AbortSignal;
  /** HTTP/2 session idle timeout in ms (NodeHttp2Handler's default is 300 s). */
  sessionTimeoutMs?: number;
}

export interface BidiStream {
  /** Queue one PayloadPart (signed as it is written). */
  send(part: PayloadPart): void;
  /** Send the signed empty end-of-input event and end the request body. */
  end(): void;
  /** Response events; throws SageMakerStreamError if the stream is reset or fails. */
  responses: AsyncIterable<ResponseEvent>;
  /** Tear down the HTTP/2 stream at once. */
  close(): void;
  /** X-Amzn-Invoked-Production-Variant of the response (undefined if the service sent none). */
  invokedProductionVariant: string | undefined;
}

export async function resolveCredentials(
  credentials: BidiStreamOptions['credentials'],
): Promise<AwsCredentialIdentity> {
  const source = credentials ?? defaultProvider();
  return typeof source === 'function' ? await source() : source;
}

/** Throws a TypeError naming the header when the input breaks the model's constraints. */
export function checkBidiStreamOptions(options: BidiStreamOptions): void {
  const violation = checkBidiInput(options);
  if (violation) throw new TypeError(`InvokeEndpointWithBidirectionalStream ${violation.member}: ${violation.message}`);
}

export async function openBidiStream(options: BidiStreamOptions): Promise<BidiStream> {
  const url = runtimeEndpoint(options.endpoint, options.region, 'bidi', options);
  checkBidiStreamOptions(options);
  const credentials = await resolveCredentials(options.credentials);
  const signer = createSigner(credentials, options.region);
  const input = new PassThrough({ objectMode: true });
  const headers: Record<string, string> = {
    // What the SDK's host-header middleware does over HTTP/2: `:authority` = hostname[:port], no host.
    ':authority': url.host,
    'content-type': EVENT_STREAM_CONTENT_TYPE,
    'x-amz-content-sha256': STREAMING_PAYLOAD_HASH,
    'x-amzn-sagemaker-model-invocation-path': options.modelInvocationPath ?? DEFAULT_MODEL_INVOCATION_PATH,
  };
  if (options.targetVariant !== undefined) headers['x-amzn-sagemaker-target-variant'] = options.targetVariant;
  if (options.modelQueryString !== undefined) headers['x-amzn-sagemaker-model-query-string'] = options.modelQueryString;
  const request = new HttpRequest({
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port && { port: Number(url.port) }),
    method: 'POST',
    path: `${url.pathname.replace(/\/$/, '')}/endpoints/${encodeURIComponent(options.endpointName)}/invocations-bidirectional-stream`,
    headers,
    body: input,
  });
  const signed = await signer.sign(request, { signingDate: new Date() });
  const handler = new NodeHttp2Handler({ sessionTimeout: options.sessionTimeoutMs ?? 300_000 });
  const payloadHandler = eventStreamPayloadHandlerProvider({
    utf8Encoder: toUtf8,
    utf8Decoder: fromUtf8,
    messageSigner: async () => signer,
    credentials: async () => credentials,
  });
  let response: HttpResponse;
  try {
    const next = async (args: { request: unknown }) =>
      handler.handle(args.request as HttpRequest, {
        ...(options.signal && { abortSignal: options.signal }),
        isEventStream: true,
      });
    ({ response } = (await payloadHandler.handle(next as never, { request: signed, input: {} })) as {
      response: HttpResponse;
    });
  } catch (error) {
    handler.destroy();
    throw new SageMakerStreamError(
      'NetworkingError',
      `cannot open the bidirectional stream at ${url.origin}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const stream = response.body as ClientHttp2Stream;
  if (response.statusCode !== 200) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    handler.destroy();
    throw parseErrorResponse(response.statusCode, response.headers, Buffer.concat(chunks).toString('utf8'));
  }
  let closed = false;
  let inputEnded = false;
  let lastWasException = false;
  return {
    invokedProductionVariant: response.headers['x-amzn-invoked-production-variant'],
    send: (part) => {
      if (!input.writableEnded) input.write(encodePayloadPart(part));
    },
    end: () => {
      inputEnded = true;
      if (input.writableEnded) return;
      input.write(new Uint8Array(0)); // signed as the empty end-of-input event
      input.end();
    },
    close: () => {
      closed = true;
      if (!input.writableEnded) input.end();
      stream.destroy();
      handler.destroy();
    },
    responses: (async function* () {
      try {
        for await (const message of readMessages(stream)) {
          const event = decodeResponseEvent(message);
          if (!event) continue;
          lastWasException = event.type !== 'PayloadPart';
          yield event;
        }
      } catch (error) {
        if (closed) return;
        throw new SageMakerStreamError('StreamReset', `bidirectional stream failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      // A reset ends the body like a clean end (docs/design/sagemaker-contracts.md#resets-and-clean-ends), and behind
      // NodeHttp2Handler the RST_STREAM code is not kept (rstCode reads 0). So: a response that
      // ends while our input is still open is a reset unless an exception event said why; after
      // our end, an aborted stream is a reset.
      if (closed || lastWasException) return;
      if (!inputEnded || stream.aborted || (stream.rstCode !== undefined && stream.rstCode !== 0)) {
        throw new SageMakerStreamError(
          'StreamReset',
          `the bidirectional stream ended abnormally${inputEnded ? '' : ' before the end of input'} (HTTP/2 code ${stream.rstCode})`,
        );
      }
    })(),
  };
}
