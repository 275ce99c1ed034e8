// `npm start -- --stt transcribe|openai|local` (or STT_PROVIDER; default local): the agent's
// speech to text for voice sessions. `--offline` swaps only the local model for its stand-in
// (`--offline --stt openai` still uses the server STT_OPENAI_BASE_URL names).
import { readAgentEnv, STT_VARIABLES } from '@kokoro-speech/runtime';
import { STT_PROVIDERS, sttFromEnv, type SttConfig } from '@kokoro-speech/runtime/stt';
import { UsageError } from '@kokoro-speech/protocol/errors';

export function sttSettings(flag: string | undefined, env: NodeJS.ProcessEnv, offline: boolean): SttConfig {
  const choice = flag ?? (env['STT_PROVIDER'] || 'local');
  const given = flag === undefined ? `STT_PROVIDER=${choice}` : `--stt ${choice}`;
  if (!(STT_PROVIDERS as readonly string[]).includes(choice))
    throw new UsageError(
      `${flag === undefined ? 'STT_PROVIDER' : '--stt'} must be ${STT_PROVIDERS.join(', ')}, not ${choice}`,
    );
  const e = readAgentEnv({ ...env, STT_PROVIDER: choice }, [...STT_VARIABLES]);
  const problems: string[] = [];
  const config = sttFromEnv(e, problems, { provider: choice as SttConfig['provider'], given, offline });
  if (!config || problems.length > 0) throw new UsageError(problems.join('; '));
  return config;
}
