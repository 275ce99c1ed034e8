// Where an OpenAI-style response's audio goes once it is encoded: the body as it is made (OpenAI's
// stream_format "audio"), the whole file in one body (Kokoro-FastAPI's stream: false), server-sent
// events (openai-sse.ts) or captioned JSON (captioned-speech.ts). The route (openai-speech.ts) makes
// the audio the same way for each and AudioResponse writes it at the reader's pace; only the frames
// that reach the wire differ.
import { audioFrames, type BodyFrames } from './audio-response.ts';
import { captionedFrames } from './captioned-speech.ts';
import type { DropInRoute, SpeechExtensions } from './fastapi-extensions.ts';
import { OpenAIError } from './openai-error.ts';
import { sseFrames } from './openai-sse.ts';

/** Kokoro-FastAPI's stream: false: the whole file with its Content-Length (a failure: an error response). */
export function wholeAudioFrames(): BodyFrames {
  let headers: Record<string, string> = {};
  const parts: Buffer[] = [];
  return {
    head: (h) => ((headers = h), null),
    audio: (bytes) => (parts.push(bytes), null),
    end: () => {
      const body = Buffer.concat(parts);
      return { headers: { ...headers, 'content-length': String(body.length) }, body };
    },
    failure: () => null, // never reached: nothing was sent before the end
  };
}

/**
 * Whether stream_format asks for server-sent events: "sse" and "audio" (OpenAI's default) on
 * /v1/audio/speech; Kokoro-FastAPI's `stream: false` (one whole body) cannot be events.
 */
export function wantsSse(streamFormat: string | undefined, route: DropInRoute, stream: boolean | undefined): boolean {
  if (streamFormat === undefined) return false;
  if (route === 'captioned') {
    throw new OpenAIError(
      400,
      'stream_format: is a field of POST /v1/audio/speech; captioned speech streams JSON lines (stream: true) or answers one JSON object (stream: false)',
      'stream_format',
      'unknown_parameter',
    );
  }
  if (streamFormat !== 'audio' && streamFormat !== 'sse') {
    throw new OpenAIError(
      400,
      `stream_format ${JSON.stringify(streamFormat)} is not a stream format; use "audio" (the bytes as they are made) or "sse" (speech.audio.delta events)`,
      'stream_format',
      'unsupported_value',
    );
  }
  if (streamFormat === 'sse' && stream === false) {
    throw new OpenAIError(
      400,
      'stream: false cannot be combined with stream_format "sse" (events are a stream)',
      'stream',
      'invalid_value',
    );
  }
  return streamFormat === 'sse';
}

/** The frames of the body a parsed request asks for. */
export function speechFrames(
  route: DropInRoute,
  request: { input: string; sse: boolean; ext: SpeechExtensions },
): BodyFrames {
  const { ext } = request;
  if (route === 'captioned') {
    return captionedFrames({ stream: ext.stream ?? true, timestamps: ext.timestamps, input: request.input });
  }
  // Kokoro has no billing tokens: usage counts characters (docs/design/drop-in-routes.md#sse).
  if (request.sse) return sseFrames({ characters: request.input.length });
  return ext.stream === false ? wholeAudioFrames() : audioFrames;
}
