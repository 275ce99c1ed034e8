// One entry point for every provider: createSpeechToText(config) gives the SpeechToText the voice
// session opens a stream on per turn. The local model is loaded (and its weights fetched) only when
// chosen; the offline stand-in replaces only the local model (`--offline --stt openai` still uses
// the server named).
import { createOfflineSpeechToText } from './offline.ts';
import { createOpenAISpeechToText } from './openai.ts';
import { createTranscribeSpeechToText } from './transcribe.ts';
import type { SttConfig } from './config.ts';
import type { SpeechToText } from './types.ts';

export async function createSpeechToText(config: SttConfig): Promise<SpeechToText> {
  switch (config.provider) {
    case 'transcribe':
      return createTranscribeSpeechToText(config);
    case 'openai':
      return createOpenAISpeechToText(config);
    case 'local': {
      if (config.offline) return createOfflineSpeechToText();
      const { createLocalWhisperSpeechToText } = await import('./local-whisper.ts');
      return createLocalWhisperSpeechToText(config.modelDir ? { modelDir: config.modelDir } : {});
    }
  }
}
