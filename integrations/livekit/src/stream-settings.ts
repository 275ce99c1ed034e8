// What every stream of one TTS shares: the transport, the voice, the frames' rate, how text is cut
// and prepared, and where an utterance the server refused on its own is reported.
import { log } from '@livekit/agents';
import type { tts } from '@livekit/agents';
import type { TtsTransport } from '@kokoro-speech/runtime/tts';
import type { KokoroTtsError } from './errors.ts';
import type { FeedOptions } from './feed.ts';
import { SEGMENTER_LANGUAGES, type SegmenterLanguage } from '@kokoro-speech/runtime/text';
import { voiceLanguage } from './languages.ts';
import type { ResolvedOptions } from './options.ts';

export interface StreamSettings extends FeedOptions {
  transport: TtsTransport;
  voice: string | undefined;
  speed: number;
  language: string | undefined;
  sampleRate: number;
  /** Timed transcripts wanted (the TTS's alignedTranscript capability). */
  words: boolean;
  skipped: (error: KokoroTtsError) => void;
}

export function streamSettings(owner: tts.TTS, o: ResolvedOptions, transport: TtsTransport): StreamSettings {
  // The segmenter and the normaliser follow the voice's language (each has rules for every
  // language Kokoro speaks; for espeak-ng's languages the normaliser rewrites only what espeak-ng
  // misreads). Without a voice the container's default speaks (af_heart unless KOKORO_VOICE says
  // otherwise): English. A language without rules here: English cuts, no normalising.
  const language = o.language ?? (o.voice === undefined ? 'en-us' : voiceLanguage(o.voice, undefined));
  const iso = language.toLowerCase().split('-')[0]!;
  const known = (SEGMENTER_LANGUAGES as readonly string[]).includes(iso);
  return {
    transport,
    voice: o.voice,
    speed: o.speed,
    language: o.language,
    sampleRate: o.sampleRate,
    words: o.wordTimestamps,
    tokenizer: o.sentenceTokenizer,
    normalize: o.normalize ?? known,
    textLanguage: known ? (iso as SegmenterLanguage) : 'en',
    skipped: (error) => {
      log().warn({ code: error.code, err: error }, error.message);
      owner.emit('error', { type: 'tts_error', timestamp: Date.now(), label: owner.label, error, recoverable: true });
    },
  };
}
