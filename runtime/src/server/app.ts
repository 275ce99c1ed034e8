// The AgentCore Runtime server: GET /ping, POST /invocations (a turn as Server-Sent Events) and
// GET /ws (turns over a WebSocket). node:http + ws rather than the bedrock-agentcore package:
// the contract is three routes, and owning the SSE writer and the disconnect handling is what the
// 100 ms cancel needs (that package also answers 406 to callers without Accept: text/event-stream).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { pino, type Logger } from 'pino';
import type { LlmProvider } from '../llm/types.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { VoiceDefaults } from '../pipeline/turn.ts';
import { RequestError, readRequestBody, sendError } from './errors.ts';
import { parseInvocation } from './requests.ts';
import { SseWriter } from './sse.ts';
import { TurnRunner } from './turn-runner.ts';
import { VoiceCatalog } from './voices.ts';
import { WsSession } from './ws-session.ts';

export interface AgentLimits {
  /** Turns running at once (SSE and WebSocket together); more get 503 `busy`. Default 16. */
  maxConcurrentTurns: number;
  /** Largest POST body and WebSocket message, in bytes. Default 64 KiB. */
  maxRequestBytes: number;
  /** A turn still running after this long ends with a `timeout` error. Default 300 s. */
  maxTurnMs: number;
}

export const DEFAULT_VOICE: VoiceDefaults = { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 };
export const DEFAULT_LIMITS: AgentLimits = { maxConcurrentTurns: 16, maxRequestBytes: 64 * 1024, maxTurnMs: 300_000 };

export interface AgentServerOptions {
  llm: LlmProvider;
  tts: TtsTransport;
  /** Voice settings used when a request does not give them. Default af_heart, 1.0, pcm_s16le, 24000. */
  defaults?: Partial<VoiceDefaults>;
  systemPrompt?: string;
  limits?: Partial<AgentLimits>;
  /** Default 127.0.0.1 (the container entry point passes 0.0.0.0). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default: a silent logger. */
  logger?: Logger;
}

export interface AgentServer {
  /** http://host:port */
  url: string;
  /** ws://host:port/ws */
  wsUrl: string;
  port: number;
  /** Stops accepting, cancels running turns, closes sockets. */
  close(): Promise<void>;
}

export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const defaults = { ...DEFAULT_VOICE, ...options.defaults };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.logger ?? pino({ level: 'silent' });
  const turns = new TurnRunner(
    {
      llm: options.llm,
      tts: options.tts,
      defaults,
      ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
    },
    limits,
    log,
  );
  const voices = new VoiceCatalog(options.tts, defaults.voice);
  const listVoices = () => voices.list();

  async function invocations(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseInvocation(await readRequestBody(req, limits.maxRequestBytes));
    if (body.kind === 'voices') {
      const list = await listVoices().catch((error: unknown) => {
        throw new RequestError(503, 'tts_unavailable', `cannot read the voice list: ${(error as Error).message}`);
      });
      const json = JSON.stringify(list);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      return void res.end(json);
    }
    const { request } = body;
    turns.validate(request); // answer 400 before the event stream starts
    // A caller that goes away (or AgentCore cutting the stream) cancels the turn at once.
    const gone = new AbortController();
    res.on('close', () => gone.abort(new Error('caller disconnected')));
    turns.admit(); // answer 503 before the event stream starts
    const sse = new SseWriter(res);
    try {
      await turns.run(
        request,
        (event) => {
          const { type, ...data } = event;
          const payload =
            event.type === 'audio'
              ? { id: event.id, seq: event.seq, data: Buffer.from(event.data).toString('base64') }
              : data;
          sse.event(type, JSON.stringify(payload));
        },
        gone.signal,
        'sse',
        sessionId(req),
      );
    } catch (error) {
      log.error({ err: error }, 'turn failed');
      sse.event('error', JSON.stringify({ code: 'internal', message: 'internal error' }));
      sse.event('done', '{}');
    } finally {
      sse.close();
    }
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handle = async () => {
      if (path === '/ping') {
        if (req.method !== 'GET' && req.method !== 'HEAD')
          throw new RequestError(405, 'method_not_allowed', 'use GET /ping');
        const body = JSON.stringify(turns.health.body());
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } else if (path === '/invocations') {
        if (req.method !== 'POST') throw new RequestError(405, 'method_not_allowed', 'use POST /invocations');
        await invocations(req, res);
      } else if (path === '/ws') {
        throw new RequestError(400, 'invalid_request', 'GET /ws needs a WebSocket upgrade');
      } else {
        throw new RequestError(
          404,
          'not_found',
          `no route ${req.method} ${path}; the routes are GET /ping, POST /invocations, GET /ws`,
        );
      }
    };
    handle().catch((error: unknown) => {
      if (!(error instanceof RequestError)) log.error({ err: error }, 'request failed');
      sendError(res, error, error instanceof RequestError && error.status === 503 ? { 'retry-after': '1' } : {});
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxRequestBytes });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== '/ws') {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const session = sessionId(req);
      new WsSession(ws, (request, emit, signal) => turns.run(request, emit, signal, 'ws', session), listVoices);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  log.info({ port, llm: options.llm.description, tts: options.tts.name }, 'agent server listening');
  return {
    url: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}/ws`,
    port,
    close: async () => {
      turns.cancelAll(new Error('server shutting down'));
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Give running turns a moment to send done, then cut what is left.
      const timer = setTimeout(() => {
        server.closeAllConnections();
        for (const client of wss.clients) client.terminate();
      }, 1000);
      await closed;
      clearTimeout(timer);
      wss.close();
    },
  };
}

function sessionId(req: IncomingMessage): string | undefined {
  const value = req.headers['x-amzn-bedrock-agentcore-runtime-session-id'];
  return typeof value === 'string' ? value : undefined;
}
