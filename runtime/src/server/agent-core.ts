// What the agent server's routes and its WebSocket upgrade share: the options resolved against
// their defaults (config/defaults.ts), the turn runner, the conversations and who owns them, the
// voice list, the origin policy, and one way to run a turn (in its session's conversation, for
// the caller it belongs to, or one-shot).
import type { Storage } from '@strands-agents/sdk';
import { chooseLanguage, type TurnRequest } from '@kokoro-speech/protocol';
import { createLogger, type Logger } from '@kokoro-speech/protocol/server';
import type { LlmProvider } from '../llm/types.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { PipelineEvent, TurnContext, VoiceDefaults } from '../pipeline/turn.ts';
import { ToolBox, type ToolOptions } from '../tools/toolbox.ts';
import { DEFAULT_LLM_TIMEOUTS, type LlmTimeouts } from '../llm/model-watch.ts';
import {
  Conversation,
  ConversationRegistry,
  DEFAULT_SESSION_LIMITS,
  DEFAULT_WINDOW_MESSAGES,
  ResilientStorage,
  SessionForbiddenError,
  SessionLimitError,
  SessionOwners,
  type SessionLimits,
  type TurnRecord,
} from '../conversation/index.ts';
import {
  DEFAULT_FLOW_LIMITS,
  DEFAULT_LIMITS,
  DEFAULT_STREAM_LIMITS,
  DEFAULT_VOICE,
  DEFAULT_WS_FRAME_LIMITS,
  type AgentLimits,
  type FlowLimits,
  type StreamLimits,
  type WsFrameLimits,
} from '../config/defaults.ts';
import { RequestError } from './errors.ts';
import { TurnRunner, type Admission } from './turn-runner.ts';
import { Observability, type ObservabilityOptions } from '../observability/index.ts';
import { VoiceCatalog, type VoiceList } from './voices.ts';
import { OriginPolicy, type OriginAllowList } from './origins.ts';
import type { CallerOutput } from './caller-flow.ts';
import type { CallerIdentity } from './identity.ts';
import type { VoiceConfig } from './voice-open.ts';
import type { VoiceTurnFacts } from '../voice/voice-session.ts';

/** Conversations (sessions): their bounds and where they are persisted. */
export interface SessionOptions extends SessionLimits {
  /** Messages each conversation keeps (Strands' sliding window). Default DEFAULT_WINDOW_MESSAGES. */
  windowMessages: number;
  /** Persist conversations in this Strands storage (LocalFileStorage, S3Storage...); default: memory only. */
  storage?: Storage;
}

/** What every part of the server is started with; each default is in config/defaults.ts or its layer. */
export interface AgentServerOptions {
  llm: LlmProvider;
  tts: TtsTransport;
  /** The agent's tools: the embedder's Strands tools and MCP clients, built-ins, limits, filler. */
  tools?: ToolOptions | ToolBox;
  sessions?: Partial<SessionOptions>;
  /** Voice settings used when a request does not give them. Default DEFAULT_VOICE. */
  defaults?: Partial<VoiceDefaults>;
  systemPrompt?: string;
  /** Default DEFAULT_LIMITS. */
  limits?: Partial<AgentLimits>;
  /** The LLM's first-token and idle timeouts, every provider (LLM_FIRST_TOKEN_SECONDS,
   *  LLM_IDLE_SECONDS); default DEFAULT_LLM_TIMEOUTS. */
  llmTimeouts?: Partial<LlmTimeouts>;
  /** Default 127.0.0.1 (the container entry point passes 0.0.0.0). */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default: a silent logger. */
  logger?: Logger;
  /** Slow callers (CALLER_BUFFER_BYTES, CALLER_STALL_SECONDS): how much may wait for a caller
   *  before its turn slows down, and how long a caller may take nothing before it is dropped.
   *  Default DEFAULT_FLOW_LIMITS. */
  flow?: Partial<FlowLimits>;
  /** Browser origins whose pages may use the agent (`ALLOWED_ORIGINS`), or '*' for any; requests
   *  without an Origin header (AgentCore, the CLI) are always served. Default: none. */
  allowedOrigins?: OriginAllowList;
  /** The WebSocket's frames (WS_MAX_FRAME_BYTES, WS_MAX_FRAMES_PER_SECOND); default AgentCore's quotas. */
  wsFrames?: Partial<WsFrameLimits>;
  /** Stream age and idle WebSockets (MAX_STREAM_SECONDS, WS_IDLE_SECONDS); default DEFAULT_STREAM_LIMITS. */
  streams?: Partial<StreamLimits>;
  /** A trace per turn (a tracer from OTEL_*) and EMF metrics per turn (AGENT_METRICS); default neither. */
  observability?: ObservabilityOptions;
  /** Speech in on the WebSocket (`listen`): the STT, a VAD per session, turn-taking (VOICE_*). */
  voice?: VoiceConfig;
  /** How a piece becomes the text spoken (TurnContext.normalize); default the text front end's. */
  normalize?: TurnContext['normalize'];
}

/** One turn as a route runs it: see AgentCore.runTurn. */
export interface TurnCall {
  /** Its conversation; undefined: a one-shot turn. */
  sessionId: string | undefined;
  /** Who asks (undefined: an anonymous caller); a session of someone else's is refused. */
  caller: CallerIdentity | undefined;
  emit: (event: PipelineEvent) => void;
  signal: AbortSignal;
  via: 'sse' | 'ws';
  flow: CallerOutput;
  onRecord?: (record: TurnRecord) => void;
  /** Persist its conversation (default true; a WebSocket connection's own conversation is not). */
  persist?: boolean;
  /** When the caller's stream ends (ms from now): the turn then fails with `stream_limit`. */
  streamLimitMs?: number;
  /** The caller's W3C `traceparent` header: the turn's trace joins it (a malformed one is ignored). */
  traceparent?: string | undefined;
  /** A voice turn's timings (metrics, trace). */
  voice?: VoiceTurnFacts;
  /** The slot the route admitted the turn with (SSE: before its 200); absent: admitted when it runs. */
  admission?: Admission;
}

/** Runs one turn: see AgentCore.runTurn. */
export type RunTurn = (request: TurnRequest, call: TurnCall) => Promise<void>;

export interface AgentCore {
  limits: AgentLimits;
  log: Logger;
  turns: TurnRunner;
  sessions: ConversationRegistry;
  origins: OriginPolicy;
  flowLimits: FlowLimits;
  wsFrames: WsFrameLimits;
  streams: StreamLimits;
  owners: SessionOwners;
  listVoices: () => Promise<VoiceList>;
  /** Speech in, when the agent has an STT. */
  voice: VoiceConfig | undefined;
  /** The voice of a request that names none (KOKORO_VOICE). */
  defaultVoice: string;
  /** The conversation of a session id for `caller`: a 403 `forbidden` when it belongs to someone
   *  else, a 503 `busy` when the registry is full. */
  conversationFor(id: string, caller: CallerIdentity | undefined, persist?: boolean): Promise<Conversation>;
  /** A 403 `forbidden` when `caller` may not use session `id` (checked, nothing created). */
  mayUse(id: string, caller: CallerIdentity | undefined): Promise<void>;
  /** Runs a turn: in its session's conversation when it has one, else one-shot. */
  runTurn: RunTurn;
  /** Cancels the conversations' turns and waits for their saves and the owner records' writes. */
  closeSessions(): Promise<void>;
}

export function createAgentCore(options: AgentServerOptions): AgentCore {
  const defaults = { ...DEFAULT_VOICE, ...options.defaults };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const log = options.logger ?? createLogger('kokoro-agent', 'silent');
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
    ...(options.normalize ? { normalize: options.normalize } : {}),
  };
  const turns = new TurnRunner(context, limits, log, new Observability(options.observability));
  const sessions = new ConversationRegistry(
    sessionOptions,
    (id, persist, owner) =>
      new Conversation(id, {
        ...(owner === undefined ? {} : { owner }),
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

  const owners = new SessionOwners(store);
  const forbidden = () => new RequestError(403, 'forbidden', new SessionForbiddenError().message);

  async function mayUse(id: string, caller: CallerIdentity | undefined): Promise<void> {
    try {
      await owners.check(id, caller?.key, sessions.peek(id));
    } catch (error) {
      if (error instanceof SessionForbiddenError) throw forbidden();
      throw error;
    }
  }

  async function conversationFor(
    id: string,
    caller: CallerIdentity | undefined,
    persist = true,
  ): Promise<Conversation> {
    const user = caller?.key;
    const live = sessions.peek(id);
    if (live) {
      if (live.owner !== user) throw forbidden();
      return live;
    }
    let unclaimed = false;
    try {
      if (persist) ({ unclaimed } = await owners.check(id, user));
    } catch (error) {
      if (error instanceof SessionForbiddenError) throw forbidden();
      throw error;
    }
    // Another request may have made it while the store answered: the first one owns it.
    const made = sessions.peek(id);
    if (made) {
      if (made.owner !== user) throw forbidden();
      return made;
    }
    let created: Conversation;
    try {
      created = sessions.get(id, { persist, owner: user });
    } catch (error) {
      if (error instanceof SessionLimitError) throw new RequestError(503, 'busy', error.message);
      throw error;
    }
    if (unclaimed && user !== undefined && created.persisted) owners.record(id, user);
    return created;
  }

  const runTurn: RunTurn = async (request, call) => {
    const { sessionId, caller, emit, signal, via, flow, onRecord, persist = true } = call;
    const extra = {
      ...(caller ? { user: caller.key } : {}),
      ...(call.traceparent === undefined ? {} : { traceparent: call.traceparent }),
      ...(call.streamLimitMs === undefined ? {} : { streamLimitMs: call.streamLimitMs }),
      ...(call.voice ? { voice: call.voice } : {}),
      ...(call.admission ? { admission: call.admission } : {}),
    };
    if (sessionId === undefined) {
      await turns.run(request, emit, signal, via, extra, flow);
      return;
    }
    turns.validate(request); // an invalid request must not barge in on the session's running turn
    const conversation = await conversationFor(sessionId, caller, persist);
    await conversation.turn(
      {
        prompt: request.prompt,
        language: chooseLanguage(request, defaults.voice).language,
        ...(request.previous_played_ms === undefined ? {} : { previousPlayedMs: request.previous_played_ms }),
      },
      signal,
      (answer, turnSignal) => turns.run(request, emit, turnSignal, via, { sessionId, answer, ...extra }, flow),
      onRecord,
    );
  };

  return {
    limits,
    log,
    turns,
    sessions,
    origins: new OriginPolicy(options.allowedOrigins),
    flowLimits: { ...DEFAULT_FLOW_LIMITS, ...options.flow },
    wsFrames: { ...DEFAULT_WS_FRAME_LIMITS, ...options.wsFrames },
    streams: { ...DEFAULT_STREAM_LIMITS, ...options.streams },
    owners,
    listVoices: () => voices.list(),
    voice: options.voice,
    defaultVoice: defaults.voice,
    conversationFor,
    mayUse,
    runTurn,
    closeSessions: async () => {
      await sessions.close();
      await owners.flush();
    },
  };
}
