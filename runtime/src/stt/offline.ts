// The local provider's stand-in for `npm start -- --offline` and the tests: no weights, no network.
// It cannot recognise words, so it says so: each utterance the VAD cut becomes an honest placeholder
// sentence naming its length ("Offline stand-in heard 1.4 seconds of speech."), which the echo LLM
// then repeats. Same cutting, same events, same timing shape as the real local model, minus the
// model (docs/design/voice-in.md#offline-stand-in).
import { TURN_LANGUAGES } from '@kokoro-speech/protocol';
import { openUtteranceStream, type UtteranceLimits } from './utterance-stream.ts';
import { STT_SAMPLE_RATE, type SpeechToText } from './types.ts';

/** The placeholder for `samples` of speech at 16 kHz. */
export function offlineTranscript(samples: number): string {
  return `Offline stand-in heard ${(samples / STT_SAMPLE_RATE).toFixed(1)} seconds of speech.`;
}

export function createOfflineSpeechToText(limits: UtteranceLimits = {}): SpeechToText {
  return {
    name: 'local',
    languages: TURN_LANGUAGES,
    needsVadCuts: true,
    open: (options) =>
      openUtteranceStream('local (offline stand-in)', async (pcm) => offlineTranscript(pcm.length), options, limits),
    close: async () => {},
  };
}
