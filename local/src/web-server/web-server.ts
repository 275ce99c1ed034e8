// The local web server (node:http): serves the page from local/page (its manifest) and its
// config.json, and relays turns from the page (POST /api/invocations as SSE, GET /api/ws as
// WebSocket) to an agent server or a deployed runtime. /invocations and /ws answer the same, so
// anything that speaks the AgentCore contract (the say CLI, curl) can use this server as if it
// were the agent. With sign-in (npm start --auth) that gateway is closed: the page calls the
// AgentCore stand-in with a token, directly or through /runtimes/* here (same-origin mode).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import WebSocket, { WebSocketServer } from 'ws';
import { readBody, refuseUpgrade, createLogger, type Logger } from '@kokoro-speech/protocol/server';
import { isRuntimeSessionId, newRuntimeSessionId } from '../agentcore/agentcore.ts';
import { originPolicy, refusal } from './origin.ts';
import { connectSources, localPageConfig, type LocalAuthSettings } from './page-config.ts';
import { proxyRuntimeRequest, proxyRuntimeUpgrade } from './runtime-proxy.ts';
import { relayPhonemize } from './phonemize-relay.ts';
import { sendJson } from './send-json.ts';
import { contentSecurityPolicy, serveStatic } from './static-files.ts';
import type { Upstream } from './upstream.ts';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

const MAX_BODY_BYTES = 256 * 1024;
const AGENTCORE_SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/** What the page shows about this set-up (GET /api/info). */
export interface PageInfo {
  llm: { name: string; description: string };
  model: { kind: 'kokoro' | 'stand-in' | 'remote'; description: string };
  target: { kind: 'local' | 'agent' | 'agentcore'; description: string };
  /** The AWS region turns use, and where it came from (present when they use AWS). */
  region?: { name: string; source: string };
  /** The agent's tools, by the names the model calls them (present when this server started the agent). */
  tools?: ToolInfo[];
  /** npm start --auth: the local sign-in and the AgentCore stand-in. */
  auth?: { description: string };
}

export interface ToolInfo {
  name: string;
  description: string;
  /** With the echo model: the directive that, in a prompt, makes it call this tool. */
  echo?: string;
}

export interface WebServerOptions {
  upstream: Upstream;
  info: PageInfo;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** More Host names to serve (`--allow-host`), besides loopback and, bound beyond it, this
   *  machine's own addresses and host name (web-server/origin.ts). */
  allowedHosts?: readonly string[];
  /**
   * Where the server logs what fails on its side: a turn the agent could not take (warn), the agent's
   * WebSocket failing (warn), a request or upgrade it refuses (debug). Default: none (it prints
   * nothing; the page shows the errors). ./log.ts makes one with the server's service name.
   */
  logger?: Logger;
  /** Sign-in (npm start --auth): the gateway is closed, and config.json waits for useAuth(). */
  auth?: boolean;
  /** The local Kokoro container, for POST /api/phonemize (absent: the stack runs none). */
  containerUrl?: string;
}

export interface WebServer {
  url: string;
  port: number;
  /** Every origin the page is served under (http://host:port), for the provider's redirect URIs. */
  origins: string[];
  /** Sign-in is up: config.json names it, and in same-origin mode /runtimes/* goes to the stand-in. */
  useAuth(settings: LocalAuthSettings): void;
  close(): Promise<void>;
}

const GATEWAY_CLOSED =
  'npm start --auth: turns go to the AgentCore runtime with a bearer token (the page signs in); this gateway is closed';

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  const { upstream, info } = options;
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  let policy = originPolicy(host, options.port ?? 3000, options.allowedHosts);
  const log = options.logger ?? createLogger('kokoro-web', 'silent');
  let auth: LocalAuthSettings | undefined;
  const sameOrigin = (): URL | undefined => (auth?.mode === 'same-origin' ? new URL(auth.endpoint) : undefined);

  server.on('request', (req, res) => {
    handle(req, res).catch((err: unknown) => {
      const [status, code] = err instanceof HttpError ? [err.status, err.code] : [502, 'upstream'];
      const where = { method: req.method, path: req.url, status };
      if (err instanceof HttpError) log.debug({ ...where, code }, err.message);
      else log.warn({ ...where, err }, 'the agent could not take the turn');
      if (!res.headersSent) sendJson(res, status, { error: { code, message: errorMessage(err) } });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/ping') return sendJson(res, 200, { status: 'Healthy' });
    if (req.method === 'GET' && url.pathname === '/api/info') return sendJson(res, 200, info);
    const turns = url.pathname === '/api/invocations' || url.pathname === '/invocations';
    const phonemize = url.pathname === '/api/phonemize';
    const why =
      turns || phonemize || url.pathname === '/config.json' || url.pathname.startsWith('/runtimes/')
        ? refusal(req, policy)
        : null;
    if (why) {
      log.debug({ method: req.method, path: url.pathname, status: 403 }, why);
      return sendJson(res, 403, { error: { code: 'forbidden', message: why } });
    }
    if (phonemize) return relayPhonemize(options.containerUrl, req, res);
    if (turns) {
      if (req.method !== 'POST') return sendJson(res, 405, { error: { code: 'method', message: 'use POST' } });
      if (options.auth) return sendJson(res, 401, { error: { code: 'unauthorized', message: GATEWAY_CLOSED } });
      return relayInvocation(req, res);
    }
    if (req.method === 'GET' && url.pathname === '/config.json') {
      if (options.auth && !auth)
        return sendJson(res, 503, { error: { code: 'starting', message: 'sign-in is starting' } });
      return sendJson(res, 200, localPageConfig(`http://${req.headers.host}`, auth, info.region?.name));
    }
    const runtime = sameOrigin();
    if (runtime && url.pathname.startsWith('/runtimes/')) return proxyRuntimeRequest(runtime, req, res);
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (await serveStatic(url.pathname, res, contentSecurityPolicy(connectSources(auth)))) return;
    }
    sendJson(res, 404, { error: { code: 'not_found', message: `no ${req.method} ${url.pathname}` } });
  }

  async function relayInvocation(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(
      req,
      MAX_BODY_BYTES,
      (n) => new HttpError(413, 'payload_too_large', `request body over ${MAX_BODY_BYTES} bytes (${n})`),
      res,
    );
    const ac = new AbortController();
    res.on('close', () => ac.abort()); // the page went away or barged in: cancel upstream at once
    // The page's x-session-id, or AgentCore's header when something speaking its contract calls.
    const session = sessionOf(req.headers['x-session-id'] ?? req.headers[AGENTCORE_SESSION_HEADER]);
    const answer = await upstream.invoke(body, session, ac.signal);
    res.writeHead(answer.status, {
      'content-type': answer.contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    await pipeline(answer.body, res).catch((err: unknown) => {
      log.debug({ err }, 'the answer stream to the page ended early'); // the page left or barged in
      answer.body.destroy();
    });
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const runtime = sameOrigin();
    const gateway = url.pathname === '/api/ws' || url.pathname === '/ws';
    const why =
      gateway || (runtime && url.pathname.startsWith('/runtimes/')) ? refusal(req, policy) : 'no WebSocket here';
    if (why) {
      log.debug({ upgrade: url.pathname, status: 403 }, why);
      return refuseUpgrade(socket, 403, { body: `${why}\n` });
    }
    if (runtime && !gateway) return proxyRuntimeUpgrade(runtime, req, socket, head);
    if (options.auth) return refuseUpgrade(socket, 401, { body: `${GATEWAY_CLOSED}\n` });
    wss.handleUpgrade(req, socket, head, (client) =>
      relayWebSocket(client, sessionOf(url.searchParams.get('session') ?? req.headers[AGENTCORE_SESSION_HEADER])),
    );
  });

  function relayWebSocket(client: WebSocket, sessionId: string): void {
    const queued: { data: WebSocket.RawData; isBinary: boolean }[] = [];
    let agent: WebSocket | undefined;
    const closeBoth = (code = 1000, reason = ''): void => {
      if (client.readyState <= WebSocket.OPEN) client.close(code, reason);
      agent?.terminate();
    };
    const agentFailed = (err: unknown): void => {
      log.warn({ err, session: sessionId }, "the agent's WebSocket failed");
      closeBoth(1011, `agent: ${errorMessage(err)}`.slice(0, 120));
    };
    client.on('message', (data, isBinary) => {
      if (agent?.readyState === WebSocket.OPEN) agent.send(data, { binary: isBinary });
      else queued.push({ data, isBinary });
    });
    client.on('close', () => agent?.terminate());
    client.on('error', (err) => {
      log.debug({ err }, "the page's WebSocket failed");
      closeBoth();
    });
    upstream.webSocketUrl(sessionId).then(
      (target) => {
        if (client.readyState !== WebSocket.OPEN) return;
        const headers = upstream.webSocketHeaders?.(sessionId);
        agent = new WebSocket(target, { perMessageDeflate: false, ...(headers ? { headers } : {}) });
        agent.on('open', () => {
          for (const m of queued.splice(0)) agent!.send(m.data, { binary: m.isBinary });
        });
        agent.on('message', (data, isBinary) => {
          if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
        });
        agent.on('close', (code, reason) => closeBoth(code === 1005 || code === 1006 ? 1011 : code, reason.toString()));
        agent.on('error', (err) => agentFailed(err));
      },
      (err: unknown) => agentFailed(err),
    );
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  policy = originPolicy(host, port, options.allowedHosts);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    origins: [...policy.hosts].map((h) => `http://${h}`),
    useAuth(settings) {
      auth = settings;
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstream.close();
    },
  };
}

/** A refusal of the web server's own (not the upstream's). */
class HttpError extends KokoroError {
  declare readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(code, message, { status });
  }
}

function sessionOf(value: string | string[] | null | undefined): string {
  return typeof value === 'string' && isRuntimeSessionId(value) ? value : newRuntimeSessionId();
}
