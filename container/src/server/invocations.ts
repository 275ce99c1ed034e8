// POST /invocations: one text in, its audio streamed back as a chunked body, piece by piece.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { audioHeaders } from '../audio/index.ts';
import { invocationRequestSchema } from '@kokoro-speech/protocol';
import { asSpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { UtteranceStream } from '../tts/utterance-stream.ts';
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
  const finish = (status: number, extra: Record<string, unknown> = {}) =>
    service.log.info(
      { ...logLine, status, durationMs: Math.round(performance.now() - started), ...extra },
      'request done',
    );
  try {
    const request = await readJsonRequest(req, res, service, invocationRequestSchema);
    const settings = service.applySettings({ ...service.defaultSettings(), format: 'wav' }, request);
    service.checkText(request.text);
    const spoken = service.spoken(request.text, request.ssml ?? false);
    service.admit();
    Object.assign(logLine, { chars: request.text.length, voice: settings.voice, format: settings.format });

    let firstAudioMs: number | undefined;
    const s = new UtteranceStream(service, {
      start: (u) => {
        firstAudioMs = performance.now() - started;
        res.writeHead(200, { ...audioHeaders(u.output), 'cache-control': 'no-store' });
      },
      audio: (_u, bytes) => void res.write(bytes),
      end: (u, stats) => {
        res.end();
        s.close();
        finish(200, {
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
        if (!res.headersSent) sendError(res, error);
        else res.destroy(error); // the client sees a truncated chunked body, not a silent success
        finish(res.headersSent ? 200 : error.status, { code: error.code, error: error.message });
      },
    });
    stream = s;
    // A client that goes away frees its queued and running work at once.
    res.on('close', () => {
      if (!res.writableFinished && s.pending > 0) {
        s.close();
        finish(499, { aborted: true });
      }
    });
    s.push(spoken, undefined, settings);
  } catch (error) {
    stream?.close();
    const e = asSpeechError(error);
    sendError(res, e);
    finish(e.status, { code: e.code, error: e.message });
  }
}
