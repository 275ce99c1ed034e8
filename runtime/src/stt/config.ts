// The speech-to-text configuration: which provider and its settings, from the agent's variables
// (config/agent-env.ts) or given directly (npm start: --stt, --offline). A rule that spans
// variables (openai needs a URL and a model) adds a problem naming them, as llmFromEnv does.
import type { AgentEnv, SttVariable } from '../config/agent-env.ts';
import type { PartialResultsStability } from './transcribe.ts';
import type { SttProviderName } from './types.ts';

export type SttConfig =
  | { provider: 'transcribe'; region?: string; partialStability?: PartialResultsStability }
  | { provider: 'openai'; baseURL: string; model: string; apiKey?: string; timeoutMs?: number }
  /** `offline`: the stand-in that needs no weights (npm start -- --offline). */
  | { provider: 'local'; offline?: boolean; modelDir?: string };

/**
 * The STT of `provider` (default STT_PROVIDER, else `fallback`: transcribe deployed, local under
 * npm start); undefined with `problems` added when its variables are incomplete. `given` is how
 * messages name the choice (npm start: `--stt openai`).
 */
export function sttFromEnv(
  e: AgentEnv<SttVariable>,
  problems: string[],
  options: { provider?: SttProviderName; fallback?: SttProviderName; given?: string; offline?: boolean } = {},
): SttConfig | undefined {
  const provider = options.provider ?? e.STT_PROVIDER ?? options.fallback ?? 'transcribe';
  const given = options.given ?? `STT_PROVIDER=${provider}`;
  switch (provider) {
    case 'transcribe': {
      const region = e.AWS_REGION ?? e.AWS_DEFAULT_REGION;
      return {
        provider,
        ...(region ? { region } : {}),
        ...(e.STT_PARTIAL_STABILITY ? { partialStability: e.STT_PARTIAL_STABILITY } : {}),
      };
    }
    case 'openai':
      if (!e.STT_OPENAI_BASE_URL)
        problems.push(`${given} needs STT_OPENAI_BASE_URL (e.g. http://127.0.0.1:8000/v1, the server's API root)`);
      if (!e.STT_OPENAI_MODEL) problems.push(`${given} needs STT_OPENAI_MODEL (e.g. whisper-1)`);
      if (!e.STT_OPENAI_BASE_URL || !e.STT_OPENAI_MODEL) return undefined;
      return {
        provider,
        baseURL: e.STT_OPENAI_BASE_URL,
        model: e.STT_OPENAI_MODEL,
        ...(e.STT_OPENAI_API_KEY ? { apiKey: e.STT_OPENAI_API_KEY } : {}),
        ...(e.STT_OPENAI_TIMEOUT_SECONDS === undefined
          ? {}
          : { timeoutMs: Math.round(e.STT_OPENAI_TIMEOUT_SECONDS * 1000) }),
      };
    case 'local':
      return {
        provider,
        ...(options.offline ? { offline: true } : {}),
        ...(e.STT_LOCAL_MODEL_DIR ? { modelDir: e.STT_LOCAL_MODEL_DIR } : {}),
      };
  }
}
