// The agent's configuration from the environment (an external contract: the table is in
// runtime/README.md), validated into one object; every problem is named in one error. The
// variables and what each accepts: config/agent-env.ts; the defaults: config/defaults.ts.
import { sttFromEnv, type SttConfig } from './stt/config.ts';
import type { VoiceOptions } from './voice/voice-options.ts';
import { ConfigError } from '@kokoro-speech/protocol/env';
import { METRICS_NAMESPACE, tracesExporter } from '@kokoro-speech/protocol/observability';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { DEFAULT_BEDROCK_MODEL_ID, type LlmConfig } from './llm/index.ts';
import type { TransportConfig } from './tts/index.ts';
import { DEFAULT_RETRY_BUDGET_MS } from './tts/retry.ts';
import type { VoiceDefaults } from './pipeline/turn.ts';
import { parseSessionStore, type SessionStoreConfig } from './conversation/storage.ts';
import { normalizeOrigin, type OriginAllowList } from './server/origins.ts';
import { readAgentEnv, type AgentEnv } from './config/agent-env.ts';
import { defined, llmFromEnv, seconds, toolsFromEnv, voiceFromEnv, type ToolConfig } from './config/from-env.ts';
import {
  DEFAULT_LIMITS,
  DEFAULT_LISTEN,
  DEFAULT_LOG_LEVEL,
  DEFAULT_SYSTEM_PROMPT,
  type AgentLimits,
} from './config/defaults.ts';

export { ConfigError };
export { DEFAULT_FILLER_AFTER_MS, DEFAULT_SYSTEM_PROMPT } from './config/defaults.ts';
export type { ToolConfig };

/** Session settings from the environment (absent when none is set: the server's defaults apply). */
export interface SessionConfig {
  idleMs?: number;
  maxSessions?: number;
  windowMessages?: number;
  store?: SessionStoreConfig;
}

export interface AgentConfig {
  /** Speech in: the STT provider (voice sessions on the WebSocket). */
  stt?: SttConfig;
  /** VOICE_* (absent keys: DEFAULT_VOICE_OPTIONS). */
  voice?: Partial<VoiceOptions>;
  host: string;
  port: number;
  llm: LlmConfig;
  tts: TransportConfig;
  defaults: VoiceDefaults;
  limits: AgentLimits;
  systemPrompt: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  tools?: ToolConfig | undefined;
  sessions?: SessionConfig | undefined;
  /** Slow callers: the buffer mark and the stall bound (absent when none is set: the defaults apply). */
  flow?: { bufferBytes?: number; stallMs?: number } | undefined;
  /** The LLM's first-token and idle timeouts (absent when none is set: the defaults apply). */
  llmTimeouts?: { firstTokenMs?: number; idleMs?: number } | undefined;
  /** Browser origins allowed to use the agent (ALLOWED_ORIGINS); absent: none. */
  allowedOrigins?: OriginAllowList | undefined;
  /** WebSocket frames (WS_MAX_FRAME_BYTES, WS_MAX_FRAMES_PER_SECOND; absent when none is set: AgentCore's quotas apply). */
  wsFrames?: { maxFrameBytes?: number; maxFramesPerSecond?: number } | undefined;
  /** Stream age and idle WebSockets (MAX_STREAM_SECONDS, WS_IDLE_SECONDS; absent when none is set: the defaults apply). */
  streams?: { maxStreamMs?: number; wsIdleMs?: number } | undefined;
  /** EMF turn metrics (AGENT_METRICS=emf); absent: off. */
  metrics?: { namespace: string; service: string } | undefined;
  /** The OTEL_* variables (traces: on when they name an exporter or endpoint; startTracing reads them). */
  otel: Record<string, string>;
}

/** Speech in (voice sessions): the STT (STT_PROVIDER, default transcribe) and VOICE_* settings. */
function voiceConfig(e: ReturnType<typeof readAgentEnv>, problems: string[]) {
  const stt = sttFromEnv(e, problems, { fallback: 'transcribe' });
  const options = defined({
    endOfTurnMs: e.VOICE_END_OF_TURN_MS,
    bargeInMinMs: e.VOICE_BARGE_IN_MIN_MS,
    maxAheadMs: e.VOICE_MAX_AHEAD_MS,
    noSpeechMs: e.VOICE_NO_SPEECH_MS,
    sttTimeoutMs: e.VOICE_STT_TIMEOUT_MS,
    preemptive: e.VOICE_PREEMPTIVE === undefined ? undefined : e.VOICE_PREEMPTIVE === 'on',
  });
  return stt ? { stt, ...(options ? { voice: options } : {}) } : {};
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const e = readAgentEnv(env);
  const problems: string[] = [];
  const tts = ttsConfig(e, problems);
  const llm = llmFromEnv(e, problems);
  const sessions = sessionConfig(e, problems);
  const allowedOrigins = originsConfig(e, problems);
  const otel = otelEnv(env, problems);
  const voice = voiceConfig(e, problems);
  if (problems.length > 0 || !tts || !llm) throw ConfigError.of(problems);
  return {
    host: e.HOST ?? DEFAULT_LISTEN.host,
    port: e.PORT ?? DEFAULT_LISTEN.port,
    // The agent reports the model it calls (the provider's default when BEDROCK_MODEL_ID is unset).
    llm: llm.provider === 'bedrock' ? { ...llm, modelId: llm.modelId ?? DEFAULT_BEDROCK_MODEL_ID } : llm,
    tts,
    defaults: voiceFromEnv(e),
    limits: {
      maxConcurrentTurns: e.MAX_CONCURRENT_TURNS ?? DEFAULT_LIMITS.maxConcurrentTurns,
      maxRequestBytes: e.MAX_REQUEST_BYTES ?? DEFAULT_LIMITS.maxRequestBytes,
      maxTurnMs: e.MAX_TURN_SECONDS === undefined ? DEFAULT_LIMITS.maxTurnMs : e.MAX_TURN_SECONDS * 1000,
    },
    systemPrompt: e.SYSTEM_PROMPT ?? DEFAULT_SYSTEM_PROMPT,
    logLevel: e.LOG_LEVEL ?? DEFAULT_LOG_LEVEL,
    tools: toolsFromEnv(e),
    sessions,
    ...(allowedOrigins ? { allowedOrigins } : {}),
    ...(e.AGENT_METRICS === 'emf'
      ? {
          metrics: {
            namespace: e.METRICS_NAMESPACE ?? DEFAULT_METRICS.namespace,
            service: e.METRICS_SERVICE ?? DEFAULT_METRICS.service,
          },
        }
      : {}),
    otel,
    ...voice,
    ...optional('flow', defined({ bufferBytes: e.CALLER_BUFFER_BYTES, stallMs: seconds(e.CALLER_STALL_SECONDS) })),
    ...optional(
      'wsFrames',
      defined({ maxFrameBytes: e.WS_MAX_FRAME_BYTES, maxFramesPerSecond: e.WS_MAX_FRAMES_PER_SECOND }),
    ),
    ...optional(
      'streams',
      defined({ maxStreamMs: seconds(e.MAX_STREAM_SECONDS), wsIdleMs: seconds(e.WS_IDLE_SECONDS) }),
    ),
    ...optional(
      'llmTimeouts',
      defined({
        firstTokenMs: seconds(e.LLM_FIRST_TOKEN_SECONDS),
        idleMs: seconds(e.LLM_IDLE_SECONDS),
      }),
    ),
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** Where the metrics go unless METRICS_NAMESPACE / METRICS_SERVICE say otherwise (the stacks' dashboard reads these). */
export const DEFAULT_METRICS = { namespace: METRICS_NAMESPACE, service: 'kokoro-agent' } as const;

/** The OTEL_* variables, checked now (an exporter or protocol the agent lacks is a ConfigError at start). */
function otelEnv(env: NodeJS.ProcessEnv, problems: string[]): Record<string, string> {
  const otel: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith('OTEL_') && value !== undefined) otel[name] = value;
  try {
    tracesExporter(otel);
  } catch (error) {
    problems.push(...(error instanceof ConfigError ? error.problems : [errorMessage(error)]));
  }
  return otel;
}

/** ALLOWED_ORIGINS: comma-separated origins, or `*` for any. */
function originsConfig(e: AgentEnv, problems: string[]): OriginAllowList | undefined {
  const entries = (e.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  if (entries.length === 0) return undefined;
  if (entries.length === 1 && entries[0] === '*') return '*';
  const origins: string[] = [];
  for (const entry of entries) {
    try {
      origins.push(normalizeOrigin(entry));
    } catch (error) {
      problems.push(`ALLOWED_ORIGINS: ${errorMessage(error)}`);
    }
  }
  return origins;
}

function sessionConfig(e: AgentEnv, problems: string[]): SessionConfig | undefined {
  let store: SessionStoreConfig | undefined;
  if (e.SESSION_STORE) {
    try {
      store = parseSessionStore(e.SESSION_STORE, e.AWS_REGION ?? e.AWS_DEFAULT_REGION);
    } catch (error) {
      problems.push(`SESSION_STORE: ${errorMessage(error)}`);
    }
  }
  return defined<SessionConfig>({
    idleMs: e.SESSION_IDLE_SECONDS === undefined ? undefined : e.SESSION_IDLE_SECONDS * 1000,
    maxSessions: e.MAX_SESSIONS,
    windowMessages: e.SESSION_WINDOW_MESSAGES,
    store,
  });
}

function ttsConfig(e: AgentEnv, problems: string[]): TransportConfig | undefined {
  if (e.KOKORO_URL && e.SAGEMAKER_ENDPOINT_NAME) {
    problems.push('KOKORO_URL and SAGEMAKER_ENDPOINT_NAME are both set: set one (direct container or SageMaker)');
    return undefined;
  }
  const transport = e.TTS_TRANSPORT ?? (e.KOKORO_URL ? 'websocket' : 'bidi');
  const retry =
    e.TTS_RETRY_BUDGET_MS === undefined && e.TTS_RECONNECT_BUDGET_MS === undefined
      ? {}
      : {
          retry: {
            budgetMs: e.TTS_RETRY_BUDGET_MS ?? DEFAULT_RETRY_BUDGET_MS,
            ...(e.TTS_RECONNECT_BUDGET_MS === undefined ? {} : { reconnectBudgetMs: e.TTS_RECONNECT_BUDGET_MS }),
          },
        };
  if (transport === 'websocket') {
    if (!e.KOKORO_URL) problems.push('TTS_TRANSPORT=websocket needs KOKORO_URL (ws://host:port of a Kokoro container)');
    return e.KOKORO_URL ? { kind: 'websocket', url: e.KOKORO_URL, ...retry } : undefined;
  }
  if (!e.SAGEMAKER_ENDPOINT_NAME) {
    problems.push(
      e.KOKORO_URL
        ? `TTS_TRANSPORT=${transport} needs SAGEMAKER_ENDPOINT_NAME (KOKORO_URL is for TTS_TRANSPORT=websocket)`
        : 'no TTS endpoint: set KOKORO_URL=ws://host:port (a container) or SAGEMAKER_ENDPOINT_NAME and AWS_REGION',
    );
    return undefined;
  }
  const region = e.AWS_REGION ?? e.AWS_DEFAULT_REGION;
  if (!region) {
    problems.push('SAGEMAKER_ENDPOINT_NAME needs AWS_REGION');
    return undefined;
  }
  const common = {
    endpointName: e.SAGEMAKER_ENDPOINT_NAME,
    region,
    ...(e.SAGEMAKER_RUNTIME_URL ? { endpoint: e.SAGEMAKER_RUNTIME_URL } : {}),
    ...(e.SAGEMAKER_TARGET_VARIANT ? { targetVariant: e.SAGEMAKER_TARGET_VARIANT } : {}),
    ...retry,
  };
  return transport === 'bidi'
    ? { kind: 'sagemaker-bidi', ...common }
    : { kind: 'sagemaker-response-stream', ...common };
}
