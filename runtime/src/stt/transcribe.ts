// Amazon Transcribe streaming through the official client: StartStreamTranscription over HTTP/2
// (the client's default handler in Node), 16 kHz s16le PCM in AudioEvents, partial results with
// stabilisation on. A streaming provider: it hears all the audio and finds its own ends of
// utterance, so the VAD's cuts are not needed. AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING (read by the
// SDK itself) points it at another endpoint, such as the local stand-in. What is documented and
// what inferred: docs/design/voice-in.md#transcribe.
import {
  StartStreamTranscriptionCommand,
  TranscribeStreamingClient,
  type AudioStream,
  type Result,
  type TranscribeStreamingClientConfig,
} from '@aws-sdk/client-transcribe-streaming';
import { TURN_LANGUAGES } from '@kokoro-speech/protocol';
import { EventQueue } from '../tts/types.ts';
import { SttError } from './errors.ts';
import { transcribeSttError } from './transcribe-errors.ts';
import { transcribeLanguageCode, UNSPACED_LANGUAGES } from './transcribe-language.ts';
import { STT_SAMPLE_RATE, type SpeechToText, type SttEvent, type SttStream, type SttStreamOptions } from './types.ts';

export type PartialResultsStability = 'low' | 'medium' | 'high';

export interface TranscribeSttOptions {
  /** Default: the SDK's (AWS_REGION, the shared config file). */
  region?: string;
  /** Default medium: why, docs/design/voice-in.md#transcribe. */
  partialStability?: PartialResultsStability;
  /** More client configuration (credentials, a request handler); the endpoint comes from the SDK's own variables. */
  clientConfig?: TranscribeStreamingClientConfig;
  /** Audio waiting for the HTTP/2 stream before the stream fails (default 10 s). */
  maxBufferedSeconds?: number;
}

/** AudioEvents of at least 50 ms: fewer, signed events for 20 ms microphone frames (inferred, see the design note). */
const MIN_CHUNK_SAMPLES = STT_SAMPLE_RATE / 20;

export function createTranscribeSpeechToText(options: TranscribeSttOptions = {}): SpeechToText {
  const client = new TranscribeStreamingClient({
    ...(options.region ? { region: options.region } : {}),
    ...options.clientConfig,
  });
  return {
    name: 'transcribe',
    languages: TURN_LANGUAGES,
    needsVadCuts: false,
    open: (stream) => openTranscribeStream(client, stream, options),
    close: async () => client.destroy(),
  };
}

function openTranscribeStream(
  client: TranscribeStreamingClient,
  options: SttStreamOptions,
  config: TranscribeSttOptions,
): SttStream {
  const maxBuffered = (config.maxBufferedSeconds ?? 10) * STT_SAMPLE_RATE;
  const languageCode = transcribeLanguageCode(options.language, options.voice);
  const where = `Transcribe streaming (${languageCode})`;
  const events = new EventQueue<SttEvent>();
  const abort = new AbortController();
  const queue: Int16Array[] = [];
  let queued = 0;
  let gathering: Int16Array[] = [];
  let gathered = 0;
  let wake: (() => void) | null = null;
  let ended = false;
  let closed = false;

  const close = (): void => {
    if (closed) return;
    closed = ended = true;
    abort.abort();
    queue.length = gathering.length = 0;
    wake?.();
    events.finish();
  };
  const fail = (error: unknown): void => {
    if (closed) return;
    events.push(transcribeSttError(error, where).toEvent());
    close();
  };
  options.signal?.addEventListener('abort', close, { once: true });

  const flush = (): void => {
    if (gathered === 0) return;
    const chunk = new Int16Array(gathered);
    let at = 0;
    for (const piece of gathering) (chunk.set(piece, at), (at += piece.length));
    gathering = [];
    gathered = 0;
    queue.push(chunk);
    queued += chunk.length;
    wake?.();
  };

  async function* audio(): AsyncGenerator<AudioStream> {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        queued -= chunk.length;
        yield { AudioEvent: { AudioChunk: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength) } };
      } else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve)).finally(() => (wake = null));
    }
  }

  const unspaced = UNSPACED_LANGUAGES.has(options.language);
  const emit = (results: Result[]): void => {
    for (const result of results) {
      const alternative = result.Alternatives?.[0];
      const text = alternative?.Transcript?.trim() ?? '';
      const endSample = Math.round((result.EndTime ?? 0) * STT_SAMPLE_RATE);
      if (!result.IsPartial) {
        events.push({ type: 'final', text, endSample });
        continue;
      }
      // The stable prefix: items Transcribe marked Stable, up to the first one it may still revise.
      let stable = '';
      for (const item of alternative?.Items ?? []) {
        if (item.Stable !== true) break;
        const gap = stable === '' || unspaced || item.Type === 'punctuation' ? '' : ' ';
        stable += gap + (item.Content ?? '');
      }
      events.push({ type: 'partial', text, stable, endSample });
    }
  };

  void (async () => {
    try {
      const response = await client.send(
        new StartStreamTranscriptionCommand({
          LanguageCode: languageCode,
          MediaEncoding: 'pcm',
          MediaSampleRateHertz: STT_SAMPLE_RATE,
          EnablePartialResultsStabilization: true,
          PartialResultsStability: config.partialStability ?? 'medium',
          AudioStream: audio(),
        }),
        { abortSignal: abort.signal },
      );
      for await (const event of response.TranscriptResultStream ?? []) {
        if (closed) return;
        if (event.TranscriptEvent) emit(event.TranscriptEvent.Transcript?.Results ?? []);
      }
      close();
    } catch (error) {
      fail(error);
    }
  })();

  return {
    events,
    write(pcm) {
      if (ended || pcm.length === 0) return;
      gathering.push(pcm.slice());
      gathered += pcm.length;
      if (gathered >= MIN_CHUNK_SAMPLES) flush();
      if (queued > maxBuffered)
        fail(
          new SttError('stt_timeout', `${where} is not taking audio as fast as it comes (${queued} samples waiting)`),
        );
    },
    speechStart() {},
    speechEnd() {},
    end() {
      if (ended) return;
      flush();
      ended = true;
      wake?.();
    },
    close,
  };
}
