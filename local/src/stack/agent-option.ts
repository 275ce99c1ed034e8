// The local agent's settings for `npm start`: the flags in place of their variables (--llm, --tools,
// --filler, --voice), then the runtime's own parsers, so the ranges and messages are the agent's.
import {
  BUILTIN_TOOL_CHOICES,
  ConfigError,
  LLM_VARIABLES,
  builtinToolId,
  fillerFromEnv,
  llmFromEnv,
  readAgentEnv,
  type BuiltinToolName,
  type LlmProviderName,
} from '@kokoro-speech/runtime';
import { UsageError } from '@kokoro-speech/protocol/errors';
import type { LocalOptions } from './options.ts';

export type AgentSettings = Pick<LocalOptions, 'llm' | 'llmRequested' | 'systemPrompt' | 'voice' | 'tools' | 'filler'>;

/**
 * The local agent's settings: the flags in place of their variables, then the runtime's parsers
 * (a bad value is named by the flag or variable that gave it). The LLM is the one asked for, else
 * openai when OPENAI_BASE_URL is set, else echo (the agent itself defaults to Bedrock).
 */
export function agentSettings(
  values: { llm?: string; tools?: string; filler?: string; voice?: string },
  env: NodeJS.ProcessEnv,
  source: '--llm' | 'LLM_PROVIDER',
): AgentSettings {
  if (values.tools !== undefined) {
    const unknown = list(values.tools).find((t) => !builtinToolId(t));
    if (unknown !== undefined)
      throw new UsageError(`--tools takes ${BUILTIN_TOOL_CHOICES}, comma-separated, not ${unknown}`);
  }
  // A flag stands in for its variable, and is what a message names.
  const flags = (
    [
      ['LLM_PROVIDER', '--llm', values.llm],
      ['BUILTIN_TOOLS', '--tools', values.tools],
      ['TOOL_FILLER_TEXT', '--filler', values.filler],
      ['KOKORO_VOICE', '--voice', values.voice],
    ] as const
  ).filter(([, , value]) => value !== undefined);
  let e;
  try {
    e = readAgentEnv(
      { ...env, ...Object.fromEntries(flags.map(([variable, , value]) => [variable, value])) },
      [...LLM_VARIABLES, 'BUILTIN_TOOLS', 'TOOL_FILLER_TEXT', 'TOOL_FILLER_AFTER_MS', 'KOKORO_VOICE', 'SYSTEM_PROMPT'],
      Object.fromEntries(flags.map(([variable, flag]) => [variable, flag])),
    );
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.problems.join('; '));
    throw error;
  }
  const requested = e.LLM_PROVIDER;
  const choice: LlmProviderName = requested ?? (e.OPENAI_BASE_URL ? 'openai' : 'echo');
  const given = source === '--llm' ? `--llm ${choice}` : `LLM_PROVIDER=${choice}`;
  const problems: string[] = [];
  const llm = llmFromEnv(e, problems, choice, given);
  if (!llm)
    throw new UsageError(
      choice === 'openai'
        ? `${given} needs OPENAI_BASE_URL and OPENAI_MODEL (and OPENAI_API_KEY if the server wants one)`
        : problems.join('; '),
    );
  return {
    llm,
    llmRequested: requested !== undefined,
    systemPrompt: e.SYSTEM_PROMPT || undefined,
    voice: e.KOKORO_VOICE,
    tools: (e.BUILTIN_TOOLS ?? []) as BuiltinToolName[],
    filler: fillerFromEnv(e),
  };
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && t !== 'none');
