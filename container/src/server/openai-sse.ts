// OpenAI's speech stream as server-sent events (stream_format "sse"): one `speech.audio.delta`
// event per piece of audio (`audio`: its bytes in the requested response_format, base64) as it is
// made, then one `speech.audio.done` with `usage`; a failure after the first event is an `error`
// event (OpenRouter's addition) and the end of the stream. Event shapes and sources:
// docs/design/drop-in-routes.md#sse.
import type { ServerResponse } from 'node:http';
import type { SpeechBody } from './speech-body.ts';
import { sendOpenAIError } from './openai-error.ts';

export const SSE_CONTENT_TYPE = 'text/event-stream';

/** One event: the type inside the data, as OpenAI sends it (no `event:` line). */
export const sseEvent = (data: { type: string } & Record<string, unknown>): string =>
  `data: ${JSON.stringify(data)}\n\n`;

export function sseSpeechBody(res: ServerResponse): SpeechBody {
  return {
    start(headers) {
      // The audio's own type moves to X-Audio-Media-Type, as OpenRouter sends it.
      const { 'content-type': audioType, ...rest } = headers;
      res.writeHead(200, {
        ...rest,
        'content-type': SSE_CONTENT_TYPE,
        ...(audioType ? { 'x-audio-media-type': audioType } : {}),
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
    },
    audio(bytes) {
      res.write(sseEvent({ type: 'speech.audio.delta', audio: bytes.toString('base64') }));
    },
    end(usage) {
      const tokens = usage.characters;
      res.end(
        sseEvent({
          type: 'speech.audio.done',
          usage: { input_tokens: tokens, output_tokens: 0, total_tokens: tokens },
        }),
      );
    },
    fail(error) {
      if (!res.headersSent) return sendOpenAIError(res, error);
      if (res.writableEnded || res.destroyed) return;
      const { message, type, param, code } = error;
      res.end(sseEvent({ type: 'error', error: { message, type, param, code } }));
    },
  };
}
