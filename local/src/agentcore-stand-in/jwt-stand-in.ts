// A loopback stand-in for the data plane of an AgentCore runtime with a JWT authorizer (shipped:
// `npm start -- --auth` runs it; the tests use it too). It takes InvokeAgentRuntime as a plain HTTPS
// call (POST /runtimes/<ARN>/invocations?qualifier=, Authorization: Bearer) and the runtime's
// WebSocket (GET /runtimes/<ARN>/ws, the token in the Authorization header or the subprotocol
// pair), verifies the token as the authorizer does (jwt-authorizer.ts), and passes accepted calls
// to the agent server behind it with the token in Authorization, as AgentCore forwards it when the
// header is allowlisted. What AgentCore answers a refused call is inferred:
// docs/design/sign-in.md#what-the-stand-in-answers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { createLogger, refuseUpgrade, sendJsonError, type Logger } from '@kokoro-speech/protocol/server';
import { isRuntimeSessionId, newRuntimeSessionId } from '../agentcore/agentcore.ts';
import { bearerOfHeader, bearerOfSubprotocols, WS_BEARER_PROTOCOL } from './bearer.ts';
import { TokenRefused, type JwtAuthorizer } from './jwt-authorizer.ts';
import { joinWebSockets, openAgentWebSocket, relayInvocation, SESSION_HEADER } from './relay.ts';

export interface JwtStandInOptions {
  /** The agent server behind it (POST /invocations, GET /ws). */
  agentUrl: URL;
  /** The runtime it stands in for: calls name it in their path. */
  runtimeArn: string;
  /** Its endpoints (default DEFAULT only; a call without a qualifier goes to DEFAULT). */
  qualifiers?: readonly string[];
  authorizer: JwtAuthorizer;
  host?: string;
  port?: number;
  /** Refusals are logged at debug. Default: none. */
  logger?: Logger;
}

export interface JwtStandIn {
  /** http://127.0.0.1:<port>: the data-plane endpoint (wss -> ws on the same port). */
  endpoint: string;
  close(): Promise<void>;
}

/** A refused call: status, AWS's error type header and the message. */
class Refusal {
  readonly status: number;
  readonly type: string;
  readonly message: string;
  constructor(status: number, type: string, message: string) {
    this.status = status;
    this.type = type;
    this.message = message;
  }
}
const unauthorized = (message: string) => new Refusal(401, 'UnauthorizedException', message);
const MISMATCH = new Refusal(403, 'AccessDeniedException', 'Authorization method mismatch');
const NO_TOKEN =
  'no bearer token (send Authorization: Bearer <access token>, or from a browser the WebSocket subprotocols ' +
  `${WS_BEARER_PROTOCOL}.<base64url token>, ${WS_BEARER_PROTOCOL})`;

/** Headers of every answer to a browser: any origin may call with a bearer token (no cookies). */
function cors(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': SESSION_HEADER };
}

export async function startJwtStandIn(options: JwtStandInOptions): Promise<JwtStandIn> {
  const log = options.logger ?? createLogger('agentcore-stand-in', 'silent');
  const qualifiers = options.qualifiers ?? ['DEFAULT'];
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    // A browser that sent the token as a subprotocol gets the sentinel back as the chosen one.
    handleProtocols: (offered) => (offered.has(WS_BEARER_PROTOCOL) ? WS_BEARER_PROTOCOL : false),
  });

  /** The runtime and endpoint a path names; a Refusal when it is not this one. */
  function route(url: URL, suffix: 'invocations' | 'ws'): void {
    const m = new RegExp(`^/runtimes/([^/]+)/${suffix}$`).exec(url.pathname);
    if (!m) throw new Refusal(404, 'UnknownOperationException', `no ${url.pathname} here`);
    const arn = decodeURIComponent(m[1]!);
    if (arn !== options.runtimeArn)
      throw new Refusal(404, 'ResourceNotFoundException', `no runtime ${arn} (this is ${options.runtimeArn})`);
    const qualifier = url.searchParams.get('qualifier') ?? 'DEFAULT';
    if (!qualifiers.includes(qualifier))
      throw new Refusal(404, 'ResourceNotFoundException', `the runtime has no endpoint ${qualifier}`);
  }

  async function verified(token: string): Promise<string> {
    try {
      await options.authorizer.verify(token);
      return token;
    } catch (err) {
      if (err instanceof TokenRefused) throw unauthorized(err.message);
      throw err;
    }
  }

  function sessionOf(value: string | string[] | null | undefined): string {
    if (value === null || value === undefined) return newRuntimeSessionId(); // AgentCore makes one
    if (typeof value === 'string' && isRuntimeSessionId(value)) return value;
    throw new Refusal(
      400,
      'ValidationException',
      `the runtime session id must be 33-256 characters of letters, digits, '-' and '_' (got ${JSON.stringify(value).slice(0, 80)})`,
    );
  }

  async function invoke(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    route(url, 'invocations');
    if (req.method !== 'POST') throw new Refusal(405, 'UnknownOperationException', 'use POST');
    const found = bearerOfHeader(req.headers.authorization);
    if ('sigv4' in found) throw MISMATCH;
    if ('none' in found) throw unauthorized(NO_TOKEN);
    if ('problem' in found) throw unauthorized(found.problem);
    const token = await verified(found.token);
    const session = sessionOf(req.headers[SESSION_HEADER]);
    await relayInvocation(
      options.agentUrl,
      req,
      res,
      {
        'content-type': String(req.headers['content-type'] ?? 'application/json'),
        accept: String(req.headers.accept ?? 'text/event-stream'),
        authorization: `Bearer ${token}`,
        [SESSION_HEADER]: session,
        ...(req.headers['content-length'] ? { 'content-length': String(req.headers['content-length']) } : {}),
      },
      { ...cors(req.headers.origin), [SESSION_HEADER]: session },
    );
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'OPTIONS') {
      // The preflight of a browser's call (AgentCore's own answer to one is not documented).
      res.writeHead(204, {
        ...cors(req.headers.origin),
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': `authorization, content-type, accept, ${SESSION_HEADER}`,
        'access-control-max-age': '600',
      });
      return res.end();
    }
    invoke(req, res, url).catch((err: unknown) => {
      const refusal = err instanceof Refusal ? err : new Refusal(500, 'InternalServerException', String(err));
      log.debug({ path: url.pathname, status: refusal.status }, refusal.message);
      sendJsonError(
        res,
        refusal.status,
        { message: refusal.message },
        {
          'x-amzn-errortype': refusal.type,
          ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
          ...cors(req.headers.origin),
        },
      );
    });
  });

  async function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    route(url, 'ws');
    if (url.searchParams.has('X-Amz-Signature') || url.searchParams.has('X-Amz-Algorithm')) throw MISMATCH;
    const header = bearerOfHeader(req.headers.authorization);
    if ('sigv4' in header) throw MISMATCH;
    if ('problem' in header) throw unauthorized(header.problem);
    const offered = bearerOfSubprotocols(req.headers['sec-websocket-protocol']);
    if ('problem' in offered) throw unauthorized(offered.problem);
    const found = 'token' in header ? header.token : 'token' in offered ? offered.token : undefined;
    if (found === undefined) throw unauthorized(NO_TOKEN);
    const token = await verified(found);
    const session = sessionOf(
      url.searchParams.get('X-Amzn-Bedrock-AgentCore-Runtime-Session-Id') ?? req.headers[SESSION_HEADER],
    );
    // Forwarded as a header, the pair stripped: what AgentCore hands the container is inferred.
    const agent = await openAgentWebSocket(options.agentUrl, {
      authorization: `Bearer ${token}`,
      [SESSION_HEADER]: session,
    });
    if ('refused' in agent) {
      const { status, body, contentType } = agent.refused;
      log.debug({ path: url.pathname, status }, 'the agent refused the WebSocket');
      return refuseUpgrade(socket, status, {
        body,
        ...(contentType ? { headers: { 'content-type': contentType } } : {}),
      });
    }
    if (socket.destroyed) return void agent.socket.terminate();
    socket.once('close', () => agent.socket.terminate()); // also when the handshake never completes
    wss.handleUpgrade(req, socket, head, (client) => joinWebSockets(client, agent.socket, agent.held));
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    upgrade(req, socket, head, url).catch((err: unknown) => {
      const refusal = err instanceof Refusal ? err : new Refusal(500, 'InternalServerException', String(err));
      log.debug({ upgrade: url.pathname, status: refusal.status }, refusal.message);
      refuseUpgrade(socket, refusal.status, {
        body: JSON.stringify({ message: refusal.message }),
        headers: {
          'content-type': 'application/json',
          'x-amzn-errortype': refusal.type,
          ...(refusal.status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
        },
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const host = options.host ?? '127.0.0.1';
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
