// The agent's speech-to-text in AgentCore: the provider (STT_PROVIDER) and, for an OpenAI-compatible
// server, where it is, which model and the key (STT_OPENAI_*): the variable names are the agent's
// contract (runtime/src/stt). Only `transcribe` needs an AWS permission, and the agent role is the
// foundation's: it holds transcribe:StartStreamTranscription when the foundation's own sttProvider
// is transcribe, so this layer refuses `transcribe` unless the foundation says so.
import * as pulumi from '@pulumi/pulumi';
import { STT_PROVIDERS, type SttProvider } from '../shared/outputs.ts';

export interface SttSettings {
  provider: SttProvider;
  /** Only with provider `openai`. */
  openai?: { baseUrl: string; model?: string; apiKey?: pulumi.Output<string> };
}

const OPENAI_KEYS = ['sttOpenaiBaseUrl', 'sttOpenaiModel', 'sttOpenaiApiKey'] as const;

/** The stack's STT config, checked: keys for `openai` only with it, and its base URL https. */
export function readSttSettings(config: pulumi.Config): SttSettings {
  const provider = config.get('sttProvider', { allowedValues: [...STT_PROVIDERS] }) ?? 'transcribe';
  const set = OPENAI_KEYS.filter((key) => config.get(key) !== undefined);
  if (provider !== 'openai') {
    if (set.length > 0)
      throw new Error(
        `sttProvider '${provider}' takes no ${set.map((k) => `'${k}'`).join(', ')} (those are for sttProvider 'openai')`,
      );
    return { provider };
  }
  const baseUrl = config.get('sttOpenaiBaseUrl');
  if (baseUrl === undefined)
    throw new Error(
      "sttProvider 'openai' needs 'sttOpenaiBaseUrl': the transcription server's base URL (https://.../v1)",
    );
  // The key goes with every request: never in clear over the internet the runtime's PUBLIC network reaches.
  if (!URL.canParse(baseUrl) || new URL(baseUrl).protocol !== 'https:')
    throw new Error(`config 'sttOpenaiBaseUrl' must be an https:// URL, got '${baseUrl}'`);
  const model = config.get('sttOpenaiModel');
  const apiKey = config.getSecret('sttOpenaiApiKey');
  return {
    provider,
    openai: { baseUrl, ...(model === undefined ? {} : { model }), ...(apiKey === undefined ? {} : { apiKey }) },
  };
}

/** Refuses `transcribe` when the foundation's agent role may not call Transcribe (its sttProvider output says). */
export function checkRoleAllowsTranscribe(foundationProvider: unknown): void {
  if (foundationProvider !== 'transcribe')
    throw new Error(
      `sttProvider 'transcribe': the foundation's agent role may not call Amazon Transcribe (its sttProvider is '${String(foundationProvider)}'); set sttProvider transcribe in the foundation stack and deploy it first, or pick openai or none here`,
    );
}

/** The agent's STT environment. */
export function sttEnvironment(s: SttSettings): Record<string, pulumi.Input<string>> {
  return {
    STT_PROVIDER: s.provider,
    ...(s.openai === undefined
      ? {}
      : {
          STT_OPENAI_BASE_URL: s.openai.baseUrl,
          ...(s.openai.model === undefined ? {} : { STT_OPENAI_MODEL: s.openai.model }),
          ...(s.openai.apiKey === undefined ? {} : { STT_OPENAI_API_KEY: s.openai.apiKey }),
        }),
  };
}
