// The parts of the agent's configuration that npm start shares with the agent, from their parsed
// variables (agent-env.ts): the LLM, the built-in tools and the filler, the voice defaults. A
// rule that spans variables (OpenAI needs a URL and a model) adds a problem naming them.
import type { LlmConfig } from '../llm/index.ts';
import type { VoiceDefaults } from '../pipeline/types.ts';
import type { AgentEnv, LlmProviderName, LlmVariable } from './agent-env.ts';
import { DEFAULT_FILLER_AFTER_MS, DEFAULT_VOICE } from './defaults.ts';
import type { BuiltinToolName } from './tool-names.ts';

/** Tool settings from the environment (absent when none is set: the server's defaults apply). */
export interface ToolConfig {
  builtin?: BuiltinToolName[];
  limits?: { timeoutMs?: number; maxResultChars?: number };
  filler?: { text: string; afterMs: number };
}

/** Only what is set: absent keys leave the server's defaults. */
export function defined<T extends object>(o: T): T | undefined {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** Seconds as whole milliseconds; unset stays unset. */
export const seconds = (s: number | undefined): number | undefined =>
  s === undefined ? undefined : Math.round(s * 1000);

/**
 * The LLM of `provider` (default LLM_PROVIDER, else Bedrock) from its variables. The Bedrock model
 * id is left out when BEDROCK_MODEL_ID is unset (the provider's default applies). `given` is how
 * messages name the choice (npm start: `--llm openai`).
 */
export function llmFromEnv(
  e: AgentEnv<LlmVariable>,
  problems: string[],
  provider: LlmProviderName = e.LLM_PROVIDER ?? 'bedrock',
  given = `LLM_PROVIDER=${provider}`,
): LlmConfig | undefined {
  const maxTokens = e.LLM_MAX_TOKENS === undefined ? {} : { maxTokens: e.LLM_MAX_TOKENS };
  switch (provider) {
    case 'echo':
      return {
        provider: 'echo',
        ...(e.ECHO_FIRST_TOKEN_MS === undefined ? {} : { firstTokenMs: e.ECHO_FIRST_TOKEN_MS }),
        ...(e.ECHO_TOKENS_PER_SECOND === undefined ? {} : { tokensPerSecond: e.ECHO_TOKENS_PER_SECOND }),
      };
    case 'openai':
      if (!e.OPENAI_BASE_URL) problems.push(`${given} needs OPENAI_BASE_URL (e.g. http://127.0.0.1:11434/v1)`);
      if (!e.OPENAI_MODEL) problems.push(`${given} needs OPENAI_MODEL`);
      if (!e.OPENAI_BASE_URL || !e.OPENAI_MODEL) return undefined;
      return {
        provider: 'openai',
        baseURL: e.OPENAI_BASE_URL,
        model: e.OPENAI_MODEL,
        ...(e.OPENAI_API_KEY ? { apiKey: e.OPENAI_API_KEY } : {}),
        ...maxTokens,
      };
    case 'bedrock': {
      // AWS_DEFAULT_REGION as the AWS CLI reads it (the AWS SDK itself ignores it).
      const region = e.AWS_REGION ?? e.AWS_DEFAULT_REGION;
      return {
        provider: 'bedrock',
        ...(e.BEDROCK_MODEL_ID ? { modelId: e.BEDROCK_MODEL_ID } : {}),
        ...(region ? { region } : {}),
        ...maxTokens,
      };
    }
  }
}

/** The filler, when TOOL_FILLER_TEXT has words (after TOOL_FILLER_AFTER_MS). */
export function fillerFromEnv(e: AgentEnv<'TOOL_FILLER_TEXT' | 'TOOL_FILLER_AFTER_MS'>): ToolConfig['filler'] {
  const text = e.TOOL_FILLER_TEXT?.trim();
  return text ? { text, afterMs: e.TOOL_FILLER_AFTER_MS ?? DEFAULT_FILLER_AFTER_MS } : undefined;
}

export function toolsFromEnv(
  e: AgentEnv<
    'BUILTIN_TOOLS' | 'TOOL_TIMEOUT_SECONDS' | 'TOOL_MAX_RESULT_CHARS' | 'TOOL_FILLER_TEXT' | 'TOOL_FILLER_AFTER_MS'
  >,
): ToolConfig | undefined {
  return defined<ToolConfig>({
    builtin: e.BUILTIN_TOOLS?.length ? e.BUILTIN_TOOLS : undefined,
    limits: defined({ timeoutMs: seconds(e.TOOL_TIMEOUT_SECONDS), maxResultChars: e.TOOL_MAX_RESULT_CHARS }),
    filler: fillerFromEnv(e),
  });
}

export function voiceFromEnv(
  e: AgentEnv<'KOKORO_VOICE' | 'KOKORO_SPEED' | 'AUDIO_FORMAT' | 'AUDIO_SAMPLE_RATE'>,
): VoiceDefaults {
  return {
    voice: e.KOKORO_VOICE ?? DEFAULT_VOICE.voice,
    speed: e.KOKORO_SPEED ?? DEFAULT_VOICE.speed,
    format: e.AUDIO_FORMAT ?? DEFAULT_VOICE.format,
    sample_rate: (e.AUDIO_SAMPLE_RATE ?? DEFAULT_VOICE.sample_rate) as VoiceDefaults['sample_rate'],
  };
}
