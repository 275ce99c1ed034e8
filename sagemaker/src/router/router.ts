// The local SageMaker runtime router: an HTTP server on loopback that speaks the SageMaker runtime
// API for one container, or for several as the instances of one variant (instances.ts: least
// outstanding requests, health by /ping), so the same client code runs locally and against AWS. HTTP/2 cleartext
// (prior knowledge) for the bidirectional stream, HTTP/1.1 too for the response-stream call (the
// SDK's default handler); one port serves both by looking at the connection preface, because
// node:http2's allowHTTP1 works only with TLS. Requests and every event are SigV4-verified against
// fixed local credentials; the bidirectional stream's input is held to the constraints of AWS's
// model (checkBidiInput). What is documented by AWS and what is inferred: sagemaker/README.md.
import { createServer as createHttp1Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { AwsCredentialIdentity } from '@smithy/types';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import { readBody, createLogger, type Logger } from '@kokoro-speech/protocol/server';
import { checkBidiInput } from '../client/index.ts';
import { sendAwsError } from './aws-errors.ts';
import type { AnyResponse } from './aws-errors.ts';
import { bridgeBidiStream, MAX_STREAM_LIFETIME_MS } from './bidi-bridge.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { InstancePool, type Instance } from './instances.ts';
import { bridgeResponseStream } from './response-stream-bridge.ts';
import { SignatureError, verifyRequest } from './verify.ts';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

export interface LocalSageMakerRouterOptions {
  /** The container: http://host:port (or ws://host:port). Give this or `containerUrls`. */
  containerUrl?: string;
  /**
   * Several containers: the instances of the one variant, each new stream or call routed to the
   * healthy one with the fewest outstanding requests (LEAST_OUTSTANDING_REQUESTS).
   */
  containerUrls?: readonly string[];
  /** With several instances: how often each one's /ping is checked (default 2000 ms). */
  healthCheckIntervalMs?: number;
  /** Accept only this endpoint name (default: any). */
  endpointName?: string;
  port?: number;
  host?: string;
  /** Credentials accepted (default: LOCAL_CREDENTIALS). */
  credentials?: AwsCredentialIdentity[];
  /** How often the container's WebSocket is pinged (default 60 s, as SageMaker does). */
  pingIntervalMs?: number;
  /** The endpoint's one production variant: X-Amzn-Invoked-Production-Variant (default AllTraffic). */
  variantName?: string;
  /** Bidi: container messages longer than this go back as PARTIAL..COMPLETE parts (default: never). */
  maxResponsePartBytes?: number;
  /** Bidi: a stream ends with a ModelStreamError this long after it opened (default 30 min). */
  maxStreamLifetimeMs?: number;
  /**
   * Where the router logs what fails on its side: a container instance that fails (warn), a request
   * it fails (error), a request it refuses (debug). Default: none (the router prints nothing). ./log.ts makes one with the router's
   * service name.
   */
  logger?: Logger;
}

export interface LocalSageMakerRouter {
  url: string;
  port: number;
  /** Each instance's container URL, outstanding and routed requests, and health (tests, benchmarks). */
  instances(): { url: string; outstanding: number; routed: number; healthy: boolean }[];
  close(): Promise<void>;
}

const ROUTE = /^\/endpoints\/([^/?]+)\/(invocations-bidirectional-stream|invocations-response-stream)(\?.*)?$/;
const H2_PREFACE = Buffer.from('PRI * HTTP/2.0');
/** InvokeEndpoint's documented maximum Body length (25,165,824 bytes). */
const MAX_PAYLOAD_BYTES = 25_165_824;

class PayloadTooLarge extends KokoroError<'ValidationError'> {
  constructor(bytes: number) {
    super('ValidationError', `the request body (${bytes} bytes) is over the limit of ${MAX_PAYLOAD_BYTES} bytes`, {
      status: 413,
    });
  }
}

function replaying(socket: Socket, first: Buffer): Duplex {
  const duplex = new Duplex({
    read: () => void socket.resume(),
    write: (chunk, _encoding, callback) => void socket.write(chunk as Buffer, callback),
    final: (callback) => {
      socket.end();
      callback();
    },
    destroy: (error, callback) => {
      socket.destroy(error ?? undefined);
      callback(error);
    },
  });
  duplex.push(first);
  socket.on('data', (chunk) => {
    if (!duplex.push(chunk)) socket.pause();
  });
  socket.on('end', () => duplex.push(null));
  socket.on('close', () => duplex.destroy());
  socket.on('error', (error) => duplex.destroy(error));
  return duplex;
}

function checkOptions(options: LocalSageMakerRouterOptions): void {
  const { maxResponsePartBytes, maxStreamLifetimeMs, variantName } = options;
  if (maxResponsePartBytes !== undefined && !(Number.isInteger(maxResponsePartBytes) && maxResponsePartBytes >= 1))
    throw new RangeError(`maxResponsePartBytes must be a whole number of bytes >= 1, not ${maxResponsePartBytes}`);
  // setTimeout's limit: 2^31 - 1 ms (24.8 days).
  if (maxStreamLifetimeMs !== undefined && !(maxStreamLifetimeMs >= 1 && maxStreamLifetimeMs <= 2 ** 31 - 1))
    throw new RangeError(`maxStreamLifetimeMs must be 1 ms to 24.8 days, not ${maxStreamLifetimeMs}`);
  const violation =
    variantName === undefined ? null : checkBidiInput({ endpointName: 'x', targetVariant: variantName });
  if (violation) throw new TypeError(`variantName: ${violation.message}`);
}

function safeDecode(label: string): string | null {
  try {
    return decodeURIComponent(label);
  } catch {
    return null; // a bad percent-encoding
  }
}

const header = (req: IncomingMessage | Http2ServerRequest, name: string) => {
  const value = req.headers[name];
  return value === undefined ? undefined : String(value);
};

export async function startLocalSageMakerRouter(options: LocalSageMakerRouterOptions): Promise<LocalSageMakerRouter> {
  checkOptions(options);
  if ((options.containerUrl === undefined) === (options.containerUrls === undefined))
    throw new TypeError(
      'give the router containerUrl (one container) or containerUrls (its instances), not both or neither',
    );
  const pool = new InstancePool(options.containerUrls ?? [options.containerUrl!], {
    ...(options.healthCheckIntervalMs !== undefined && { healthCheckIntervalMs: options.healthCheckIntervalMs }),
  });
  const known = options.credentials ?? [LOCAL_CREDENTIALS];
  const variant = options.variantName ?? 'AllTraffic';
  const log = options.logger ?? createLogger('sagemaker-local', 'silent');
  const instanceFailed = (instance: Instance) => (reason: string) => {
    log.warn({ instance: instance.http, reason }, 'container instance failed');
    pool.suspect(instance);
  };

  const handle = async (req: IncomingMessage | Http2ServerRequest, res: AnyResponse) => {
    const path = req.url ?? '/';
    const refuse = (status: number, code: string, message: string): void => {
      log.debug({ method: req.method, path, status, code }, message);
      sendAwsError(res, status, code, message);
    };
    if (path === '/ping') return void res.end('{}');
    const route = ROUTE.exec(path);
    if (!route || req.method !== 'POST')
      return refuse(404, 'UnknownOperationException', `no operation at ${req.method} ${path}`);
    const [, label, operation] = route as unknown as [string, string, string];
    const name = safeDecode(label);
    if (name === null) return refuse(400, 'InputValidationError', `malformed endpoint name ${label}`);
    const bidi = operation === 'invocations-bidirectional-stream';
    if (bidi && req.httpVersionMajor !== 2)
      return refuse(400, 'ValidationError', 'the bidirectional stream needs HTTP/2');
    // RFC 9113 section 8.3.1: a client MUST NOT send a Host that differs from :authority.
    const authority = header(req, ':authority');
    const host = header(req, 'host');
    if (req.httpVersionMajor === 2 && authority !== undefined && host !== undefined && authority !== host)
      return refuse(400, 'InputValidationError', `host ${host} differs from :authority ${authority}`);
    try {
      const body = bidi ? undefined : await readBody(req, MAX_PAYLOAD_BYTES, (n) => new PayloadTooLarge(n), res);
      const verified = await verifyRequest(
        { method: req.method!, path, headers: req.headers, ...(body ? { body } : { streaming: true }) },
        known,
      );
      const targetVariant = header(req, 'x-amzn-sagemaker-target-variant');
      if (bidi) {
        const modelInvocationPath = header(req, 'x-amzn-sagemaker-model-invocation-path');
        const modelQueryString = header(req, 'x-amzn-sagemaker-model-query-string');
        const violation = checkBidiInput({ endpointName: name, targetVariant, modelInvocationPath, modelQueryString });
        if (violation) return refuse(400, 'InputValidationError', violation.message);
      }
      if (options.endpointName && name !== options.endpointName)
        return refuse(400, 'ValidationError', `Endpoint ${name} not found.`);
      if (targetVariant !== undefined && targetVariant !== variant)
        return refuse(400, 'ValidationError', `Endpoint ${name} has no production variant ${targetVariant}.`);
      const route = pool.acquire();
      const { instance } = route;
      if (bidi) {
        const wsPath = `/${header(req, 'x-amzn-sagemaker-model-invocation-path') ?? BIDI_PATH.slice(1)}`;
        const query = header(req, 'x-amzn-sagemaker-model-query-string');
        bridgeBidiStream(
          req as Http2ServerRequest,
          res as Http2ServerResponse,
          verified,
          `${instance.ws}${wsPath}${query ? `?${query}` : ''}`,
          {
            invokedVariant: variant,
            ...(options.pingIntervalMs !== undefined && { pingIntervalMs: options.pingIntervalMs }),
            ...(options.maxResponsePartBytes !== undefined && { maxResponsePartBytes: options.maxResponsePartBytes }),
            maxStreamLifetimeMs: options.maxStreamLifetimeMs ?? MAX_STREAM_LIFETIME_MS,
            onEnd: route.done,
            onInstanceFailure: instanceFailed(instance),
          },
        );
      } else {
        try {
          await bridgeResponseStream(body!, req.headers, res, instance.http, variant, instanceFailed(instance));
        } finally {
          route.done();
        }
      }
    } catch (error) {
      if (error instanceof SignatureError) return refuse(403, error.code, error.message);
      if (error instanceof PayloadTooLarge) return refuse(error.status!, error.code, error.message);
      log.error({ err: error, method: req.method, path }, 'request failed');
      sendAwsError(res, 500, 'InternalFailure', errorMessage(error));
    }
  };

  const h2 = createHttp2Server();
  h2.on('request', (req, res) => void handle(req, res));
  const h1 = createHttp1Server((req: IncomingMessage, res: ServerResponse) => void handle(req, res));
  const sockets = new Set<Socket>();
  // noDelay: streamed audio must not wait for Nagle (net.Server does not set it; http.Server does).
  const server = createNetServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      const isH2 = first
        .subarray(0, H2_PREFACE.length)
        .equals(H2_PREFACE.subarray(0, Math.min(first.length, H2_PREFACE.length)));
      if (isH2) {
        // node:http2 reads from the socket's native handle, so bytes already read cannot be put
        // back: hand it a stream that replays them.
        h2.emit('connection', replaying(socket, first));
      } else {
        socket.unshift(first);
        h1.emit('connection', socket);
        socket.resume();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    instances: () =>
      pool.instances.map((i) => ({ url: i.http, outstanding: i.outstanding, routed: i.routed, healthy: i.healthy })),
    close: async () => {
      pool.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      h1.closeAllConnections();
      await closed;
    },
  };
}
