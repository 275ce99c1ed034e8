// OpenAI's speech stream as server-sent events (stream_format "sse"): one `speech.audio.delta`
// event per piece of audio (`audio`: its bytes in the requested response_format, base64) as it is
// made, then one `speech.audio.done` with `usage`; a failure after the first event is an `error`
// event (OpenRouter's addition) and the end of the stream. Event shapes and sources:
// docs/design/drop-in-routes.md#sse.
import type { BodyFrames } from './audio-response.ts';
import { OpenAIError } from './openai-error.ts';

export const SSE_CONTENT_TYPE = 'text/event-stream';

/** One event: the type inside the data, as OpenAI sends it (no `event:` line). */
export const sseEvent = (data: { type: string } & Record<string, unknown>): string =>
  `data: ${JSON.stringify(data)}\n\n`;

/** `usage.characters`: the input's length (Kokoro has no billing tokens). */
export function sseFrames(usage: { characters: number }): BodyFrames {
  return {
    head(headers) {
      // The audio's own type moves to X-Audio-Media-Type, as OpenRouter sends it.
      const { 'content-type': audioType, ...rest } = headers;
      return {
        ...rest,
        'content-type': SSE_CONTENT_TYPE,
        ...(audioType ? { 'x-audio-media-type': audioType } : {}),
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      };
    },
    audio: (bytes) => sseEvent({ type: 'speech.audio.delta', audio: bytes.toString('base64') }),
    end() {
      const tokens = usage.characters;
      const usageField = { input_tokens: tokens, output_tokens: 0, total_tokens: tokens };
      return { body: sseEvent({ type: 'speech.audio.done', usage: usageField }) };
    },
    failure(error) {
      const e =
        error instanceof OpenAIError ? error : new OpenAIError(500, error.message, null, 'internal', 'server_error');
      const { message, type, param, code } = e;
      return sseEvent({ type: 'error', error: { message, type, param, code } });
    },
  };
}
