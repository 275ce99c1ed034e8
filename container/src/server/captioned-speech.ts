// Kokoro-FastAPI's captioned speech (POST /dev/captioned_speech): the body of /v1/audio/speech plus
// `stream` and `return_timestamps`; the answer is base64 `audio` with word `timestamps`
// [{word, start_time, end_time}] (seconds). Streamed (its default) it is one JSON object a line,
// each with the audio made since the last line and the words spoken in it; not streamed, one
// object with the whole file. Each word is the input as given at the word's offsets, before
// normalisation, lexicon, SSML or inline phonemes. Shapes, sources and the differences from
// Kokoro-FastAPI: docs/design/drop-in-routes.md#captioned-speech.
import type { UtteranceWord } from '../tts/utterance-sink.ts';
import type { BodyFrames } from './audio-response.ts';

export const CAPTIONED_SPEECH_PATH = '/dev/captioned_speech';

export interface WordTimestamp {
  word: string;
  start_time: number;
  end_time: number;
}

export interface CaptionedOptions {
  /** One JSON line per piece of audio (true) or one JSON object at the end. */
  stream: boolean;
  /** return_timestamps: false sends `timestamps: null`. */
  timestamps: boolean;
  /** The input as the client sent it (word offsets point into it). */
  input: string;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

export function captionedFrames(options: CaptionedOptions): BodyFrames {
  let audioFormat = 'application/octet-stream';
  let audio: Buffer[] = [];
  let words: WordTimestamp[] = [];
  const line = () => ({
    audio: Buffer.concat(audio).toString('base64'),
    audio_format: audioFormat,
    timestamps: options.timestamps ? words : null,
  });
  const flush = () => {
    const text = `${JSON.stringify(line())}\n`;
    audio = [];
    words = [];
    return text;
  };
  return {
    head(headers) {
      audioFormat = headers['content-type'] ?? audioFormat;
      if (!options.stream) return null;
      return { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };
    },
    audio(bytes, pieceStart) {
      // Audio of an earlier piece still pending here had no words (a pause, a piece without word
      // timings): its own line. Slices of one piece stay together for its words.
      const earlier = options.stream && pieceStart && audio.length > 0 ? flush() : null;
      audio.push(bytes);
      return earlier;
    },
    words(spoken: readonly UtteranceWord[]) {
      for (const w of spoken) {
        words.push({
          word: options.input.slice(w.start, w.end),
          start_time: seconds(w.start_ms),
          end_time: seconds(w.end_ms),
        });
      }
      // A line carries audio and the words spoken in it; words of audio an encoder still holds wait for it.
      return options.stream && audio.length > 0 ? flush() : null;
    },
    end() {
      if (options.stream) return { body: audio.length > 0 || words.length > 0 ? flush() : null };
      const body = Buffer.from(JSON.stringify(line()));
      return { headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, body };
    },
    // A streamed failure after the first line can only cut the body: Kokoro-FastAPI's lines have no error form.
    failure: () => null,
  };
}
