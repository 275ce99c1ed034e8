// One entry point for every provider: createSpeechToText(config) gives the SpeechToText the voice
// session opens a stream on per turn. The local model is loaded (and its weights fetched) only when
// chosen; the offline stand-in replaces only the local model (`--offline --stt openai` still uses
// the server named).
import { createOfflineSpeechToText } from './offline.ts';
import { SttError } from './errors.ts';
import type { SttConfig } from './config.ts';
import type { SpeechToText } from './types.ts';

/** What only npm start can make: the local model runs in its process (local/src/stt), never deployed. */
export interface SttMakers {
  local?: (config: Extract<SttConfig, { provider: 'local' }>) => Promise<SpeechToText>;
}

export async function createSpeechToText(config: SttConfig, makers: SttMakers = {}): Promise<SpeechToText> {
  switch (config.provider) {
    case 'transcribe':
      // Each client is loaded when chosen: the AWS SDK's Transcribe client and openai's are not small.
      return (await import('./transcribe.ts')).createTranscribeSpeechToText(config);
    case 'openai':
      return (await import('./openai.ts')).createOpenAISpeechToText(config);
    case 'local': {
      if (config.offline) return createOfflineSpeechToText();
      if (makers.local) return makers.local(config);
      throw new SttError(
        'stt_unavailable',
        'STT_PROVIDER=local runs only under npm start (the local model loads in its process); ' +
          'deployed, choose STT_PROVIDER=transcribe or openai',
        { retryable: false },
      );
    }
  }
}
