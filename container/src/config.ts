// Server settings from environment variables, validated once at start-up (README lists them all):
// the project's one way to read them (protocol/src/env.ts), so a bad one is a ConfigError naming
// each variable, what it takes and what it got.
import { z } from 'zod';
import { ConfigError, envEnum, envInt, envNumber, parseEnv } from '@kokoro-speech/protocol/env';
import { LOG_LEVELS } from '@kokoro-speech/protocol/server';
import { METRICS_NAMESPACE } from '@kokoro-speech/protocol/metric-names';
import { DEVICES, DTYPES } from './engine/index.ts';

export { ConfigError };

const text = (max = Infinity) => z.string().max(max, { error: `must be at most ${max} characters` });

const envSchema = z.object({
  PORT: envInt(0, 65535).default(8080),
  HOST: text().default('0.0.0.0'),
  KOKORO_API_KEY: text(1024).optional(),
  KOKORO_MODEL_DIR: text().default('/opt/ml/model'),
  KOKORO_DTYPE: envEnum(DTYPES).default('fp32'),
  KOKORO_DEVICE: envEnum(DEVICES).default('cpu'),
  KOKORO_VOICE: text().default('af_heart'),
  MAX_CONCURRENT_RUNS: envInt(1).default(1),
  MAX_TEXT_CHARS: envInt(1).default(5000),
  MAX_QUEUED_PER_SESSION: envInt(1).default(64),
  MAX_QUEUED_TOTAL: envInt(1).default(1024),
  MAX_WS_MESSAGE_BYTES: envInt(256).default(64 * 1024),
  MAX_SESSIONS: envInt(1).default(256),
  MAX_WS_BUFFERED_BYTES: envInt(65536).default(16 * 1024 * 1024),
  PREP_WORKERS: envInt(1).optional(),
  SHUTDOWN_GRACE_MS: envInt(0).default(10_000),
  LOG_LEVEL: envEnum(LOG_LEVELS).default('info'),
  ADMISSION: envEnum(['on', 'off']).default('on'),
  ADMISSION_MAX_UTILIZATION: envNumber(0, 1, 'above').default(0.7),
  ADMISSION_FIRST_AUDIO_MS: envNumber(1).default(400),
  ADMISSION_WINDOW_S: envNumber(1).default(30),
  ADMISSION_PRIOR_SPEAKING_SHARE: envNumber(0, 1).default(0.5),
  METRICS_INTERVAL_S: envNumber(0).default(60),
  METRICS_NAMESPACE: text(255).default(METRICS_NAMESPACE),
  METRICS_ENDPOINT_NAME: text(255).optional(),
  METRICS_VARIANT_NAME: text(255).optional(),
  KOKORO_LEXICON: text().optional(),
});

export interface ServerConfig {
  port: number;
  /** Listening address (HOST): 0.0.0.0 in the image, as SageMaker's contract needs. */
  host: string;
  /** KOKORO_API_KEY: when set, every route but /ping asks for `Authorization: Bearer <key>`. Never logged. */
  apiKey: string | undefined;
  modelDir: string;
  dtype: (typeof DTYPES)[number];
  device: (typeof DEVICES)[number];
  /** Voice used when a request or session names none. */
  defaultVoice: string;
  maxConcurrentRuns: number;
  maxTextChars: number;
  /** Utterances accepted but not yet finished, per WebSocket session. */
  maxQueuedPerSession: number;
  /** Utterances accepted but not yet finished, across all sessions and POST requests. */
  maxQueuedTotal: number;
  /** Largest client WebSocket message (and POST body) accepted, in bytes. */
  maxWsMessageBytes: number;
  maxSessions: number;
  /** Audio a WebSocket client may leave unread before the session is dropped (it is not reading). */
  maxWsBufferedBytes: number;
  /** Text preparation worker threads (default: the engine's choice). */
  prepWorkers: number | undefined;
  /** How long SIGTERM waits for in-flight audio before cancelling it. */
  shutdownGraceMs: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Admission control of new sessions and POSTs (off: everything is admitted, load still measured). */
  admission: 'on' | 'off';
  /** Busy share of the model (or prep) slots that one more session may bring the server to. */
  admissionMaxUtilization: number;
  /** A new answer's first audio deadline in the backlog rule. */
  admissionFirstAudioMs: number;
  /** How far back the sustained rule measures the load per session. */
  admissionWindowMs: number;
  /** Share of its time a session is assumed to speak until there is data. */
  admissionPriorSpeakingShare: number;
  /** How often a load line (CloudWatch Embedded Metric Format) is written to stdout; 0 = never. */
  metricsIntervalMs: number;
  metricsNamespace: string;
  /** Dimensions of the load metrics (EndpointName, VariantName), when set. */
  metricsDimensions: Record<string, string>;
  /** The lexicon: a JSON file's path or s3://bucket/key (container/README.md, Pronunciation). */
  lexicon: string | undefined;
}

/** Reads the configuration; throws one ConfigError naming every bad variable. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Blank is unset, as everywhere in the project.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const e = parseEnv(envSchema, present);
  return {
    port: e.PORT,
    host: e.HOST,
    apiKey: e.KOKORO_API_KEY,
    modelDir: e.KOKORO_MODEL_DIR,
    dtype: e.KOKORO_DTYPE,
    device: e.KOKORO_DEVICE,
    defaultVoice: e.KOKORO_VOICE,
    maxConcurrentRuns: e.MAX_CONCURRENT_RUNS,
    maxTextChars: e.MAX_TEXT_CHARS,
    maxQueuedPerSession: e.MAX_QUEUED_PER_SESSION,
    maxQueuedTotal: e.MAX_QUEUED_TOTAL,
    maxWsMessageBytes: e.MAX_WS_MESSAGE_BYTES,
    maxSessions: e.MAX_SESSIONS,
    maxWsBufferedBytes: e.MAX_WS_BUFFERED_BYTES,
    prepWorkers: e.PREP_WORKERS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logLevel: e.LOG_LEVEL,
    admission: e.ADMISSION,
    admissionMaxUtilization: e.ADMISSION_MAX_UTILIZATION,
    admissionFirstAudioMs: e.ADMISSION_FIRST_AUDIO_MS,
    admissionWindowMs: e.ADMISSION_WINDOW_S * 1000,
    admissionPriorSpeakingShare: e.ADMISSION_PRIOR_SPEAKING_SHARE,
    metricsIntervalMs: e.METRICS_INTERVAL_S * 1000,
    metricsNamespace: e.METRICS_NAMESPACE,
    metricsDimensions: {
      ...(e.METRICS_ENDPOINT_NAME ? { EndpointName: e.METRICS_ENDPOINT_NAME } : {}),
      ...(e.METRICS_VARIANT_NAME ? { VariantName: e.METRICS_VARIANT_NAME } : {}),
    },
    lexicon: e.KOKORO_LEXICON,
  };
}

/** The defaults, with overrides (for in-process servers). */
export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...configFromEnv({}), ...overrides };
}
