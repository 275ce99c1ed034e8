// POST /invocations: one text in, its audio streamed back as a chunked body, piece by piece, at the
// pace the client reads it (audio-response.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { audioHeaders } from '../audio/index.ts';
import { invocationRequestSchema } from '@kokoro-speech/protocol';
import { asSpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { UtteranceStream } from '../tts/utterance-stream.ts';
import { AudioResponse } from './audio-response.ts';
import { sendError } from './error-response.ts';
import { readJsonRequest } from './json-request.ts';

export async function handleInvocation(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
  requestId: string,
): Promise<void> {
  const started = performance.now();
  const logLine: Record<string, unknown> = { request: requestId, route: 'POST /invocations' };
  let stream: UtteranceStream | undefined;
  let logged = false;
  // One line per request, with the status the client was sent (sentStatus).
  const finish = (extra: Record<string, unknown> = {}) => {
    if (logged) return;
    logged = true;
    service.log.info(
      {
        ...logLine,
        status: sentStatus(res, extra),
        durationMs: Math.round(performance.now() - started),
        ...extra,
      },
      'request done',
    );
  };
  try {
    const request = await readJsonRequest(req, res, service, invocationRequestSchema);
    const settings = service.applySettings({ ...service.defaultSettings(), format: 'wav' }, request);
    service.checkText(request.text);
    service.checkSpoken(settings.voice);
    const spoken = service.spoken(request.text, request.ssml ?? false);
    service.admit();
    Object.assign(logLine, { chars: request.text.length, voice: settings.voice, format: settings.format });

    let firstAudioMs: number | undefined;
    const body = new AudioResponse(res, {
      maxBufferedBytes: service.config.maxWsBufferedBytes,
      onStalled: (bufferedBytes) => {
        stream?.close();
        service.log.warn({ ...logLine, bufferedBytes }, 'client is not reading its audio; dropping the request');
        finish({ stalled: true, bufferedBytes });
      },
      onEncodeError: () => {},
    });
    const s = new UtteranceStream(service, {
      start: (u) => {
        firstAudioMs = performance.now() - started;
        res.writeHead(200, { ...audioHeaders(u.output), 'cache-control': 'no-store' });
      },
      audio: (_u, bytes) => body.write(bytes),
      end: (u, stats) => {
        s.close();
        void body.end();
        finish({
          firstAudioMs: Math.round(firstAudioMs ?? 0),
          sampleRate: u.output.sampleRate,
          samples: stats.samples,
          audioMs: Math.round(stats.durationMs),
          synthesisMs: Math.round(stats.synthesisMs),
          queueMs: Math.round(stats.queueMs),
          pieces: stats.pieces,
        });
      },
      fail: (_u, error) => {
        s.close();
        body.close();
        if (!res.headersSent) sendError(res, error);
        else res.destroy(error); // the client sees a truncated chunked body, not a silent success
        finish({ code: error.code, error: error.message });
      },
    });
    stream = s;
    // A client that goes away frees its queued and running work at once (its choice: info, not error).
    res.on('close', () => {
      if (!res.writableFinished && s.pending > 0) {
        s.close();
        finish({ aborted: true });
      }
    });
    s.push(spoken, undefined, settings);
  } catch (error) {
    stream?.close();
    if (clientGone(req, res)) return finish({ aborted: true });
    const e = asSpeechError(error);
    sendError(res, e);
    finish({ code: e.code, error: e.message });
  }
}

/** The client went away (an upload cut off, a closed connection): nothing to answer, nothing wrong here. */
export function clientGone(req: IncomingMessage, res: ServerResponse): boolean {
  return res.destroyed || (req.destroyed && !req.complete);
}

/**
 * The status a request's log line shows: what the client was sent (an error answer's, or 200 with
 * `error`/`stalled` when the body was cut short); 499 when the client closed the request (nginx's
 * convention); null when nothing was sent.
 */
export function sentStatus(res: ServerResponse, extra: { aborted?: boolean }): number | null {
  if (extra.aborted) return 499;
  return res.headersSent ? res.statusCode : null;
}
