// The agent's configuration from the environment (an external contract: the table is in
// runtime/README.md), validated with zod into one object; every problem is named in one error.
import { z } from 'zod';
import { AUDIO_FORMATS, MAX_SPEED, MIN_SPEED, SAMPLE_RATES } from '@kokoro-speech/protocol';
import { DEFAULT_BEDROCK_MODEL_ID, type LlmConfig } from './llm/index.ts';
import type { TransportConfig } from './tts/index.ts';
import { DEFAULT_RETRY_BUDGET_MS } from './tts/backoff.ts';
import { DEFAULT_LIMITS, DEFAULT_VOICE, type AgentLimits } from './server/app.ts';
import type { VoiceDefaults } from './pipeline/turn.ts';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './tools/builtin.ts';
import { parseSessionStore, type SessionStoreConfig } from './conversation/storage.ts';
import { normalizeOrigin, type OriginAllowList } from './server/origins.ts';
import { KokoroError } from '@kokoro-speech/protocol/errors';

/** Tool settings from the environment (absent when none is set: the server's defaults apply). */
export interface ToolConfig {
  builtin?: BuiltinToolName[];
  limits?: { timeoutMs?: number; maxResultChars?: number };
  filler?: { text: string; afterMs: number };
}

/** Session settings from the environment (absent when none is set: the server's defaults apply). */
export interface SessionConfig {
  idleMs?: number;
  maxSessions?: number;
  windowMessages?: number;
  store?: SessionStoreConfig;
}

/** How long a tool must run, with nothing playing, before the filler (when one is configured). */
export const DEFAULT_FILLER_AFTER_MS = 1500;

export const DEFAULT_SYSTEM_PROMPT =
  'You are a helpful voice assistant. Your answers are spoken aloud as they are written: ' +
  'start with a short, direct sentence, then use plain sentences. Avoid markdown, lists, tables, ' +
  'code and URLs unless the user asks for them.';

export interface AgentConfig {
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
}

/** A bad environment variable (the message names it and what it takes). */
export class ConfigError extends KokoroError<'config'> {
  constructor(message: string) {
    super('config', message);
  }
}

const empty = (v: unknown) => (v === '' ? undefined : v);
const str = () => z.preprocess(empty, z.string().optional());
const int = (min: number, max: number) => z.preprocess(empty, z.coerce.number().int().min(min).max(max).optional());
const num = (min: number, max: number) => z.preprocess(empty, z.coerce.number().min(min).max(max).optional());
const httpUrl = () =>
  z.preprocess(empty, z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional());

const envSchema = z.object({
  HOST: str(),
  PORT: int(0, 65535),
  LOG_LEVEL: z.preprocess(empty, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional()),
  // TTS endpoint
  KOKORO_URL: z.preprocess(empty, z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' }).optional()),
  SAGEMAKER_ENDPOINT_NAME: str(),
  AWS_REGION: str(),
  AWS_DEFAULT_REGION: str(),
  SAGEMAKER_RUNTIME_URL: httpUrl(),
  SAGEMAKER_TARGET_VARIANT: str(),
  TTS_TRANSPORT: z.preprocess(empty, z.enum(['websocket', 'bidi', 'response-stream']).optional()),
  TTS_RETRY_BUDGET_MS: int(0, 60_000),
  TTS_RECONNECT_BUDGET_MS: int(0, 600_000),
  // LLM
  LLM_PROVIDER: z.preprocess(empty, z.enum(['bedrock', 'openai', 'echo']).optional()),
  BEDROCK_MODEL_ID: str(),
  OPENAI_BASE_URL: httpUrl(),
  OPENAI_MODEL: str(),
  OPENAI_API_KEY: str(),
  ECHO_FIRST_TOKEN_MS: num(0, 600_000),
  ECHO_TOKENS_PER_SECOND: num(0.1, 100_000),
  LLM_MAX_TOKENS: int(1, 200_000),
  LLM_FIRST_TOKEN_SECONDS: num(0.1, 600),
  LLM_IDLE_SECONDS: num(0.1, 600),
  SYSTEM_PROMPT: z.string().optional(),
  // Voice and limits
  KOKORO_VOICE: z.preprocess(empty, z.string().max(64).optional()),
  KOKORO_SPEED: num(MIN_SPEED, MAX_SPEED),
  AUDIO_FORMAT: z.preprocess(empty, z.enum(AUDIO_FORMATS).optional()),
  AUDIO_SAMPLE_RATE: z.preprocess(
    empty,
    z.coerce
      .number()
      .refine((n) => (SAMPLE_RATES as readonly number[]).includes(n), `must be one of ${SAMPLE_RATES.join(', ')}`)
      .optional(),
  ),
  MAX_CONCURRENT_TURNS: int(1, 10_000),
  MAX_REQUEST_BYTES: int(1024, 100 * 1024 * 1024),
  MAX_TURN_SECONDS: num(1, 3600),
  // Tools and sessions
  BUILTIN_TOOLS: z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x !== '' && x !== 'none')
        : v,
    z
      .array(z.enum(BUILTIN_TOOL_NAMES, { error: `must list ${BUILTIN_TOOL_NAMES.join(', ')} (comma-separated)` }))
      .optional(),
  ),
  TOOL_TIMEOUT_SECONDS: num(0.1, 600),
  TOOL_MAX_RESULT_CHARS: int(100, 1_000_000),
  TOOL_FILLER_TEXT: z.preprocess(empty, z.string().max(200).optional()),
  TOOL_FILLER_AFTER_MS: int(0, 60_000),
  SESSION_IDLE_SECONDS: num(1, 86_400),
  MAX_SESSIONS: int(1, 100_000),
  SESSION_WINDOW_MESSAGES: int(2, 10_000),
  SESSION_STORE: str(),
  // Callers
  ALLOWED_ORIGINS: str(),
  CALLER_BUFFER_BYTES: int(4096, 64 * 1024 * 1024),
  CALLER_STALL_SECONDS: num(0.5, 3600),
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const tts = ttsConfig(e, problems);
  const llm = llmConfig(e, problems);
  const sessions = sessionConfig(e, problems);
  const allowedOrigins = originsConfig(e, problems);
  if (problems.length > 0 || !tts || !llm) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return {
    host: e.HOST ?? '0.0.0.0',
    port: e.PORT ?? 8080,
    llm,
    tts,
    defaults: {
      voice: e.KOKORO_VOICE ?? DEFAULT_VOICE.voice,
      speed: e.KOKORO_SPEED ?? DEFAULT_VOICE.speed,
      format: e.AUDIO_FORMAT ?? DEFAULT_VOICE.format,
      sample_rate: (e.AUDIO_SAMPLE_RATE ?? DEFAULT_VOICE.sample_rate) as VoiceDefaults['sample_rate'],
    },
    limits: {
      maxConcurrentTurns: e.MAX_CONCURRENT_TURNS ?? DEFAULT_LIMITS.maxConcurrentTurns,
      maxRequestBytes: e.MAX_REQUEST_BYTES ?? DEFAULT_LIMITS.maxRequestBytes,
      maxTurnMs: e.MAX_TURN_SECONDS === undefined ? DEFAULT_LIMITS.maxTurnMs : e.MAX_TURN_SECONDS * 1000,
    },
    systemPrompt: e.SYSTEM_PROMPT ?? DEFAULT_SYSTEM_PROMPT,
    logLevel: e.LOG_LEVEL ?? 'info',
    tools: toolConfig(e),
    sessions,
    ...(allowedOrigins ? { allowedOrigins } : {}),
    ...optional('flow', defined({ bufferBytes: e.CALLER_BUFFER_BYTES, stallMs: seconds(e.CALLER_STALL_SECONDS) })),
    ...optional(
      'llmTimeouts',
      defined({
        firstTokenMs: seconds(e.LLM_FIRST_TOKEN_SECONDS),
        idleMs: seconds(e.LLM_IDLE_SECONDS),
      }),
    ),
  };
}

const seconds = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1000));
const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** ALLOWED_ORIGINS: comma-separated origins, or `*` for any. */
function originsConfig(e: Env, problems: string[]): OriginAllowList | undefined {
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
      problems.push(`ALLOWED_ORIGINS: ${(error as Error).message}`);
    }
  }
  return origins;
}

/** Only what is set: absent keys leave the server's defaults. */
function defined<T extends object>(o: T): T | undefined {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

function toolConfig(e: Env): ToolConfig | undefined {
  return defined<ToolConfig>({
    builtin: e.BUILTIN_TOOLS?.length ? e.BUILTIN_TOOLS : undefined,
    limits: defined({
      timeoutMs: e.TOOL_TIMEOUT_SECONDS === undefined ? undefined : Math.round(e.TOOL_TIMEOUT_SECONDS * 1000),
      maxResultChars: e.TOOL_MAX_RESULT_CHARS,
    }),
    filler: e.TOOL_FILLER_TEXT
      ? { text: e.TOOL_FILLER_TEXT, afterMs: e.TOOL_FILLER_AFTER_MS ?? DEFAULT_FILLER_AFTER_MS }
      : undefined,
  });
}

function sessionConfig(e: Env, problems: string[]): SessionConfig | undefined {
  let store: SessionStoreConfig | undefined;
  if (e.SESSION_STORE) {
    try {
      store = parseSessionStore(e.SESSION_STORE, e.AWS_REGION ?? e.AWS_DEFAULT_REGION);
    } catch (error) {
      problems.push(`SESSION_STORE: ${(error as Error).message}`);
    }
  }
  return defined<SessionConfig>({
    idleMs: e.SESSION_IDLE_SECONDS === undefined ? undefined : e.SESSION_IDLE_SECONDS * 1000,
    maxSessions: e.MAX_SESSIONS,
    windowMessages: e.SESSION_WINDOW_MESSAGES,
    store,
  });
}

type Env = z.infer<typeof envSchema>;

function ttsConfig(e: Env, problems: string[]): TransportConfig | undefined {
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

function llmConfig(e: Env, problems: string[]): LlmConfig | undefined {
  const maxTokens = e.LLM_MAX_TOKENS === undefined ? {} : { maxTokens: e.LLM_MAX_TOKENS };
  switch (e.LLM_PROVIDER ?? 'bedrock') {
    case 'echo':
      return {
        provider: 'echo',
        ...(e.ECHO_FIRST_TOKEN_MS === undefined ? {} : { firstTokenMs: e.ECHO_FIRST_TOKEN_MS }),
        ...(e.ECHO_TOKENS_PER_SECOND === undefined ? {} : { tokensPerSecond: e.ECHO_TOKENS_PER_SECOND }),
      };
    case 'openai':
      if (!e.OPENAI_BASE_URL)
        problems.push('LLM_PROVIDER=openai needs OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1)');
      if (!e.OPENAI_MODEL) problems.push('LLM_PROVIDER=openai needs OPENAI_MODEL');
      if (!e.OPENAI_BASE_URL || !e.OPENAI_MODEL) return undefined;
      return {
        provider: 'openai',
        baseURL: e.OPENAI_BASE_URL,
        model: e.OPENAI_MODEL,
        ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
        ...maxTokens,
      };
    case 'bedrock': {
      const region = e.AWS_REGION ?? e.AWS_DEFAULT_REGION;
      return {
        provider: 'bedrock',
        modelId: e.BEDROCK_MODEL_ID ?? DEFAULT_BEDROCK_MODEL_ID,
        ...(region ? { region } : {}),
        ...maxTokens,
      };
    }
  }
}
