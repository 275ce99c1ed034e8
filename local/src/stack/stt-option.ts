// `npm start -- --stt transcribe|openai|local` (or STT_PROVIDER; default local): the agent's
// speech to text for voice sessions. `--offline` swaps only the local model for its stand-in
// (`--offline --stt openai` still uses the server STT_OPENAI_BASE_URL names).
import { readAgentEnv, STT_VARIABLES } from '@kokoro-speech/runtime';
import {
  createSpeechToText,
  STT_PROVIDERS,
  sttFromEnv,
  type SpeechToText,
  type SttConfig,
} from '@kokoro-speech/runtime/stt';
import { errorMessage, UsageError } from '@kokoro-speech/protocol/errors';
import { createLocalWhisperSpeechToText } from '../stt/local-whisper.ts';
import { StartupError } from './startup-error.ts';

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

/** The agent's STT, the local model made in this process; one that cannot be had stops the start. */
export async function startStt(config: SttConfig): Promise<SpeechToText> {
  try {
    return await createSpeechToText(config, {
      local: (c) => createLocalWhisperSpeechToText(c.modelDir ? { modelDir: c.modelDir } : {}),
    });
  } catch (error) {
    // Its message names every way out (--offline, a folder, a mirror, another provider).
    throw new StartupError(errorMessage(error), { cause: error });
  }
}
