// The AgentCore Runtime server: GET /ping, POST /invocations (a turn as Server-Sent Events) and
// GET /ws (turns over a WebSocket). node:http + ws rather than the bedrock-agentcore package:
// the contract is three routes, and owning the SSE writer and the disconnect handling is what the
// 100 ms cancel needs (that package also answers 406 to callers without Accept: text/event-stream).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Storage } from '@strands-agents/sdk';
import { SESSION_ID_RULE, type TurnRequest } from '@kokoro-speech/protocol';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import { createLogger, type Logger } from './log.ts';
import type { LlmProvider } from '../llm/types.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { PipelineEvent, VoiceDefaults } from '../pipeline/turn.ts';
import { ToolBox, type ToolOptions } from '../tools/toolbox.ts';
import { DEFAULT_LLM_TIMEOUTS, type LlmTimeouts } from '../llm/model-watch.ts';
import {
  Conversation,
  ConversationRegistry,
  DEFAULT_SESSION_LIMITS,
  DEFAULT_WINDOW_MESSAGES,
  ResilientStorage,
  SessionLimitError,
  isSessionId,
  newSessionId,
  type SessionLimits,
  type TurnRecord,
} from '../conversation/index.ts';
import { RequestError, readRequestBody, sendError } from './errors.ts';
import { parseInvocation } from './requests.ts';
import { SseWriter } from './sse.ts';
import { TurnRunner } from './turn-runner.ts';
import { VoiceCatalog } from './voices.ts';
import { WsSession } from './ws-session.ts';
import { OriginPolicy, type OriginAllowList } from './origins.ts';
import { CallerOutput, DEFAULT_FLOW_LIMITS, type FlowLimits } from './caller-flow.ts';

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

/** Conversations (sessions): their bounds and where they are persisted. */
export interface SessionOptions extends SessionLimits {
  /** Messages each conversation keeps (Strands' sliding window). Default 40. */
  windowMessages: number;
  /** Persist conversations in this Strands storage (LocalFileStorage, S3Storage...); default: memory only. */
  storage?: Storage;
}

export interface AgentServerOptions {
  llm: LlmProvider;
  tts: TtsTransport;
  /** The agent's tools: the embedder's Strands tools and MCP clients, built-ins, limits, filler. */
  tools?: ToolOptions | ToolBox;
  sessions?: Partial<SessionOptions>;
  /** Voice settings used when a request does not give them. Default af_heart, 1.0, pcm_s16le, 24000. */
  defaults?: Partial<VoiceDefaults>;
  systemPrompt?: string;
  limits?: Partial<AgentLimits>;
  /** The LLM's first-token and idle timeouts, every provider (LLM_FIRST_TOKEN_SECONDS,
   *  LLM_IDLE_SECONDS); default 20 s and 15 s. */
  llmTimeouts?: Partial<LlmTimeouts>;
  /** Default 127.0.0.1 (the container entry point passes 0.0.0.0). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default: a silent logger. */
  logger?: Logger;
  /** Slow callers (CALLER_BUFFER_BYTES, CALLER_STALL_SECONDS): how much may wait for a caller
   *  before its turn slows down, and how long a caller may take nothing before it is dropped.
   *  Default 512 KiB and 10 s. */
  flow?: Partial<FlowLimits>;
  /** Browser origins whose pages may use the agent (`ALLOWED_ORIGINS`), or '*' for any; requests
   *  without an Origin header (AgentCore, the CLI) are always served. Default: none. */
  allowedOrigins?: OriginAllowList;
}

export interface AgentServer {
  /** http://host:port */
  url: string;
  /** ws://host:port/ws */
  wsUrl: string;
  port: number;
  /** The live conversations (for tests and the benchmark). */
  sessions: ConversationRegistry;
  /** Stops accepting, cancels running turns, closes sockets, waits for session saves. */
  close(): Promise<void>;
}

const SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/** The session header's id; a malformed one is an invalid_request naming the header. */
function headerSession(req: IncomingMessage): string | undefined {
  const value = req.headers[SESSION_HEADER];
  if (value === undefined) return undefined;
  if (!isSessionId(value))
    throw new RequestError(
      400,
      'invalid_request',
      `X-Amzn-Bedrock-AgentCore-Runtime-Session-Id: must be ${SESSION_ID_RULE}, got ${JSON.stringify(String(value).slice(0, 300))}`,
    );
  return value;
}

export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const defaults = { ...DEFAULT_VOICE, ...options.defaults };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.logger ?? createLogger('silent');
  const tools = options.tools instanceof ToolBox ? options.tools : new ToolBox(options.tools);
  const sessionOptions: SessionOptions = {
    ...DEFAULT_SESSION_LIMITS,
    windowMessages: DEFAULT_WINDOW_MESSAGES,
    ...options.sessions,
  };
  const store =
    sessionOptions.storage &&
    new ResilientStorage(sessionOptions.storage, {
      warn: (message, error) => log.warn({ err: error }, message),
    });
  const llmTimeouts = { ...DEFAULT_LLM_TIMEOUTS, ...options.llmTimeouts };
  const context = {
    llm: options.llm,
    tts: options.tts,
    defaults,
    tools,
    llmTimeouts,
    ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
  };
  const turns = new TurnRunner(context, limits, log);
  const sessions = new ConversationRegistry(
    sessionOptions,
    (id, persist) =>
      new Conversation(id, {
        recipe: {
          model: options.llm.model,
          tools,
          windowMessages: sessionOptions.windowMessages,
          ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
        },
        provider: options.llm,
        llmTimeouts,
        log,
        ...(persist && store ? { storage: store } : {}),
      }),
  );
  const voices = new VoiceCatalog(options.tts, defaults.voice);
  const origins = new OriginPolicy(options.allowedOrigins);
  const flowLimits: FlowLimits = { ...DEFAULT_FLOW_LIMITS, ...options.flow };
  const listVoices = () => voices.list();

  /** The conversation of a session id; a full registry is a 503 busy. */
  function conversationOf(id: string, persist = true): Conversation {
    try {
      return sessions.get(id, { persist });
    } catch (error) {
      if (error instanceof SessionLimitError) throw new RequestError(503, 'busy', error.message);
      throw error;
    }
  }

  /** Runs a turn: in its session's conversation when it has one, else one-shot. */
  async function runTurnOf(
    request: TurnRequest,
    sessionId: string | undefined,
    emit: (event: PipelineEvent) => void,
    signal: AbortSignal,
    via: 'sse' | 'ws',
    flow: CallerOutput,
    onRecord?: (record: TurnRecord) => void,
    persist = true,
  ): Promise<void> {
    if (sessionId === undefined) {
      await turns.run(request, emit, signal, via, {}, flow);
      return;
    }
    turns.validate(request); // an invalid request must not barge in on the session's running turn
    await conversationOf(sessionId, persist).turn(
      {
        prompt: request.prompt,
        ...(request.previous_played_ms === undefined ? {} : { previousPlayedMs: request.previous_played_ms }),
      },
      signal,
      (answer, turnSignal) => turns.run(request, emit, turnSignal, via, { sessionId, answer }, flow),
      onRecord,
    );
  }

  async function invocations(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = parseInvocation(await readRequestBody(req, res, limits.maxRequestBytes));
    if (body.kind === 'voices') {
      const list = await listVoices().catch((error: unknown) => {
        throw new RequestError(503, 'tts_unavailable', `cannot read the voice list: ${(error as Error).message}`);
      });
      const json = JSON.stringify(list);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      return void res.end(json);
    }
    const { request } = body;
    const sessionId = request.session_id ?? headerSession(req);
    if (request.previous_played_ms !== undefined && sessionId === undefined)
      throw new RequestError(
        400,
        'invalid_request',
        'previous_played_ms needs a session: send session_id or the X-Amzn-Bedrock-AgentCore-Runtime-Session-Id header',
      );
    turns.validate(request); // answer 400 before the event stream starts
    // A caller that goes away (or AgentCore cutting the stream) cancels the turn at once.
    const gone = new AbortController();
    res.on('close', () => gone.abort(new Error('caller disconnected')));
    turns.admit(); // answer 503 before the event stream starts
    if (sessionId !== undefined) conversationOf(sessionId); // likewise when no session can be made
    const sse = new SseWriter(res);
    const flow = new CallerOutput(
      { buffered: () => res.writableLength, gone: () => res.destroyed, drop: () => res.destroy() },
      flowLimits,
      (reason) => {
        log.warn({ reason }, 'caller dropped');
        gone.abort(new Error(reason));
      },
    );
    res.on('close', () => flow.closed());
    try {
      await runTurnOf(
        request,
        sessionId,
        (event) => {
          const { type, ...data } = event;
          const payload =
            event.type === 'audio'
              ? { id: event.id, seq: event.seq, data: Buffer.from(event.data).toString('base64') }
              : data;
          if (!sse.closed) sse.event(type, JSON.stringify(payload), flow.written());
        },
        gone.signal,
        'sse',
        flow,
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
        if (req.method === 'OPTIONS') return origins.preflight(req, res, 'POST');
        const refused = origins.refusal(req);
        if (refused) throw new RequestError(403, 'forbidden', refused);
        for (const [name, value] of Object.entries(origins.corsHeaders(req))) res.setHeader(name, value);
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
      return refuseUpgrade(socket, 404);
    }
    const refused = origins.refusal(req);
    if (refused) {
      return refuseUpgrade(socket, 403, { body: refused });
    }
    let header: string | undefined;
    try {
      header = headerSession(req);
    } catch (error) {
      return refuseUpgrade(socket, 400, { body: errorMessage(error) });
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // The connection is one conversation: the header's session, else its own (never persisted,
      // dropped when the socket closes) unless a turn names another session.
      const connection = header ?? newSessionId('ws-connection');
      new WsSession(
        ws,
        (request, emit, signal, onRecord, flow) => {
          const named = request.session_id ?? header;
          return runTurnOf(request, named ?? connection, emit, signal, 'ws', flow, onRecord, named !== undefined);
        },
        () => {
          if (header === undefined) sessions.delete(connection);
        },
        listVoices,
        flowLimits,
        (reason) => log.warn({ reason }, 'caller dropped'),
      );
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
    sessions,
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
      await sessions.close();
    },
  };
}
