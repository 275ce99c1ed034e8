// The agent's environment variables (an external contract: the table is in runtime/README.md),
// each with what it accepts. The agent reads them all (config.ts); npm start reads the LLM, tool,
// filler, voice and prompt ones through the same fields (readAgentEnv with the names it uses).
import { z } from 'zod';
import {
  AUDIO_FORMATS,
  MAX_SPEED,
  MAX_VOICE_CHARS,
  MIN_SPEED,
  SAMPLE_RATES,
  isSpoken,
  unspokenMessage,
  voiceLanguage,
  voiceSyntaxProblem,
} from '@kokoro-speech/protocol';
import { envEnum, envInt, envNumber, optional, parseEnv, unset } from '@kokoro-speech/protocol/env';
import { LOG_LEVELS } from '@kokoro-speech/protocol/server';
import { BUILTIN_TOOL_CHOICES, BUILTIN_TOOL_NAMES } from './tool-names.ts';

/** STT_PROVIDER's values (`npm start -- --stt NAME`): docs/design/voice-in.md. */
export const STT_PROVIDERS = ['transcribe', 'openai', 'local'] as const;
export type SttProviderName = (typeof STT_PROVIDERS)[number];

/** LLM_PROVIDER's values. */
export const LLM_PROVIDERS = ['echo', 'bedrock', 'openai'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

const str = () => optional(z.string());
const int = (min: number, max: number) => optional(envInt(min, max));
const num = (min: number, max: number) => optional(envNumber(min, max));
const text = (max: number) => optional(z.string().max(max, { error: `must be at most ${max} characters` }));
const url = (protocol: RegExp, error: string) => optional(z.url({ protocol, error }));
const httpUrl = () => url(/^https?$/, 'must be an http(s):// URL');
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => optional(envEnum(values));

/** A comma-separated list; blank entries and `none` drop out. */
const list = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '' && x !== 'none')
    : v;

/** What an LLM's configuration reads (llmFromEnv), besides the AWS region. */
const LLM_ENV = {
  LLM_PROVIDER: oneOf(LLM_PROVIDERS),
  BEDROCK_MODEL_ID: str(),
  OPENAI_BASE_URL: httpUrl(),
  OPENAI_MODEL: str(),
  OPENAI_API_KEY: str(),
  ECHO_FIRST_TOKEN_MS: num(0, 600_000),
  ECHO_TOKENS_PER_SECOND: num(0.1, 100_000),
  LLM_MAX_TOKENS: int(1, 200_000),
};

/** What a speech-to-text configuration reads (sttFromEnv), besides the AWS region. */
const STT_ENV = {
  STT_PROVIDER: oneOf(STT_PROVIDERS),
  STT_OPENAI_BASE_URL: httpUrl(),
  STT_OPENAI_MODEL: str(),
  STT_OPENAI_API_KEY: str(),
  STT_OPENAI_TIMEOUT_SECONDS: num(0.1, 600),
  STT_PARTIAL_STABILITY: oneOf(['low', 'medium', 'high']),
  STT_LOCAL_MODEL_DIR: str(),
};

export const AGENT_ENV = {
  HOST: str(),
  PORT: int(0, 65535),
  LOG_LEVEL: oneOf(LOG_LEVELS),
  AWS_REGION: str(),
  AWS_DEFAULT_REGION: str(),
  // TTS endpoint
  KOKORO_URL: url(/^wss?$/, 'must be a ws:// or wss:// URL'),
  SAGEMAKER_ENDPOINT_NAME: str(),
  SAGEMAKER_RUNTIME_URL: httpUrl(),
  SAGEMAKER_TARGET_VARIANT: str(),
  TTS_TRANSPORT: oneOf(['websocket', 'bidi', 'response-stream']),
  TTS_RETRY_BUDGET_MS: int(0, 60_000),
  TTS_RECONNECT_BUDGET_MS: int(0, 600_000),
  // LLM
  ...LLM_ENV,
  LLM_FIRST_TOKEN_SECONDS: num(0.1, 600),
  LLM_IDLE_SECONDS: num(0.1, 600),
  // Blank is kept: an empty SYSTEM_PROMPT turns the prompt off.
  SYSTEM_PROMPT: z.string().optional(),
  // Speech to text (voice turns; docs/design/voice-in.md)
  ...STT_ENV,
  // Voice sessions: turn-taking and bounds (src/voice/voice-options.ts)
  VOICE_END_OF_TURN_MS: int(0, 10_000),
  VOICE_BARGE_IN_MIN_MS: int(0, 5_000),
  VOICE_MAX_AHEAD_MS: int(1_000, 600_000),
  VOICE_NO_SPEECH_MS: int(1_000, 3_600_000),
  VOICE_STT_TIMEOUT_MS: int(500, 120_000),
  VOICE_PREEMPTIVE: oneOf(['on', 'off']),
  // Voice and limits
  // A voice or a blend (`af_bella(2)+af_sky(1)`): a malformed blend, or one of a language not
  // spoken here (ja, zh), is refused at start, named.
  KOKORO_VOICE: optional(
    z
      .string()
      .max(MAX_VOICE_CHARS, { error: `must be at most ${MAX_VOICE_CHARS} characters` })
      .superRefine((voice, ctx) => {
        const problem = voiceSyntaxProblem(voice);
        if (problem) return void ctx.addIssue({ code: 'custom', message: problem.message });
        // A voice (or a blend's first voice) of a language this deployment does not speak would
        // fail every turn: refused at start, naming why (docs/contracts/turn.md, "Language").
        const language = voiceLanguage(voice);
        if (!isSpoken(language))
          ctx.addIssue({
            code: 'custom',
            message: unspokenMessage(language, `voice ${JSON.stringify(voice)}'s language`),
          });
      }),
  ),
  KOKORO_SPEED: num(MIN_SPEED, MAX_SPEED),
  AUDIO_FORMAT: oneOf(AUDIO_FORMATS),
  AUDIO_SAMPLE_RATE: z.preprocess(
    unset,
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
    list,
    z.array(z.enum(BUILTIN_TOOL_NAMES, { error: `must list ${BUILTIN_TOOL_CHOICES}, comma-separated` })).optional(),
  ),
  TOOL_TIMEOUT_SECONDS: num(0.1, 600),
  TOOL_MAX_RESULT_CHARS: int(100, 1_000_000),
  TOOL_FILLER_TEXT: text(200),
  TOOL_FILLER_AFTER_MS: int(0, 60_000),
  SESSION_IDLE_SECONDS: num(1, 86_400),
  MAX_SESSIONS: int(1, 100_000),
  SESSION_WINDOW_MESSAGES: int(2, 10_000),
  SESSION_STORE: str(),
  // Callers
  ALLOWED_ORIGINS: str(),
  CALLER_BUFFER_BYTES: int(4096, 64 * 1024 * 1024),
  CALLER_STALL_SECONDS: num(0.5, 3600),
  // AgentCore's limits (WebSocket frames, stream age, idle sessions)
  WS_MAX_FRAME_BYTES: int(4096, 16 * 1024 * 1024),
  WS_MAX_FRAMES_PER_SECOND: int(10, 100_000),
  MAX_STREAM_SECONDS: num(1, 86_400),
  WS_IDLE_SECONDS: num(1, 28_800),
  // Metrics (traces: the standard OTEL_* variables, read by the tracing set-up itself)
  AGENT_METRICS: oneOf(['off', 'emf']),
  METRICS_NAMESPACE: text(255),
  METRICS_SERVICE: text(255),
};

export type AgentVariable = keyof typeof AGENT_ENV;
/** The parsed variables `K` (undefined: unset). */
export type AgentEnv<K extends AgentVariable = AgentVariable> = { [P in K]: z.output<(typeof AGENT_ENV)[P]> };

/** The names of a section's variables and the AWS region's (Bedrock and Amazon Transcribe read it). */
const withRegion = <S extends object>(section: S) => [
  ...(Object.keys(section) as (keyof S & string)[]),
  ...(['AWS_REGION', 'AWS_DEFAULT_REGION'] as const),
];

/** The variables an LLM's configuration reads (llmFromEnv). */
export const LLM_VARIABLES = withRegion(LLM_ENV) satisfies readonly AgentVariable[];
export type LlmVariable = (typeof LLM_VARIABLES)[number];

/** The variables a speech-to-text configuration reads (sttFromEnv). */
export const STT_VARIABLES = withRegion(STT_ENV) satisfies readonly AgentVariable[];
export type SttVariable = (typeof STT_VARIABLES)[number];

/**
 * The variables `variables` (default: all) from `env`, parsed; a ConfigError names every bad one.
 * `names` renames variables in the messages (npm start: `--filler` for TOOL_FILLER_TEXT).
 */
export function readAgentEnv<K extends AgentVariable = AgentVariable>(
  env: Record<string, string | undefined>,
  variables: readonly K[] = Object.keys(AGENT_ENV) as K[],
  names: Readonly<Record<string, string>> = {},
): AgentEnv<K> {
  const fields = Object.fromEntries(variables.map((v) => [v, AGENT_ENV[v]]));
  return parseEnv(z.object(fields), env, names) as AgentEnv<K>;
}
