// Where an OpenAI-style response's audio goes once it is encoded: the body as it is made (OpenAI's
// stream_format "audio"), the whole file in one body (Kokoro-FastAPI's stream: false), server-sent
// events (openai-sse.ts) or captioned JSON (captioned-speech.ts). The route (openai-speech.ts) makes
// the audio the same way for each; only what reaches the wire differs.
import type { ServerResponse } from 'node:http';
import type { UtteranceWord } from '../tts/utterance-sink.ts';
import { captionedSpeechBody } from './captioned-speech.ts';
import type { DropInRoute, SpeechExtensions } from './fastapi-extensions.ts';
import { OpenAIError, sendOpenAIError } from './openai-error.ts';
import { sseSpeechBody } from './openai-sse.ts';

export interface SpeechUsage {
  /** Characters of the input (Kokoro has no billing tokens; docs/design/drop-in-routes.md#sse). */
  characters: number;
}

export interface SpeechBody {
  /** The audio begins: `headers` describe the audio (its content type and rate). */
  start(headers: Record<string, string>): void;
  audio(bytes: Buffer): void;
  /** The words of the audio just given (only bodies that show them have it). */
  words?(words: readonly UtteranceWord[]): void;
  end(usage: SpeechUsage): void;
  /** A failure: an error response before the first byte; after it an error event, or a cut body. */
  fail(error: OpenAIError): void;
}

/** OpenAI's stream_format "audio": the bytes as they are made (a failure after them cuts the body). */
export function streamedAudioBody(res: ServerResponse): SpeechBody {
  return {
    start: (headers) => void res.writeHead(200, headers),
    audio: (bytes) => void res.write(bytes),
    end: () => void res.end(),
    fail: (error) => sendOpenAIError(res, error),
  };
}

/** Kokoro-FastAPI's stream: false: the whole file with its Content-Length, or an error response. */
export function wholeAudioBody(res: ServerResponse): SpeechBody {
  let headers: Record<string, string> = {};
  const parts: Buffer[] = [];
  return {
    start: (h) => void (headers = h),
    audio: (bytes) => void parts.push(bytes),
    end: () => {
      const body = Buffer.concat(parts);
      res.writeHead(200, { ...headers, 'content-length': String(body.length) }).end(body);
    },
    fail: (error) => sendOpenAIError(res, error),
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

/** The body a parsed request asks for. */
export function speechBody(
  res: ServerResponse,
  route: DropInRoute,
  request: { input: string; sse: boolean; ext: SpeechExtensions },
): SpeechBody {
  const { ext } = request;
  if (route === 'captioned') {
    return captionedSpeechBody(res, { stream: ext.stream ?? true, timestamps: ext.timestamps, input: request.input });
  }
  if (request.sse) return sseSpeechBody(res);
  return ext.stream === false ? wholeAudioBody(res) : streamedAudioBody(res);
}
