// The HTTP routes: GET /ping (SageMaker's health check), POST /invocations, POST /v1/phonemize, and the
// OpenAI-compatible API (/v1/audio/speech, /v1/models, /v1/audio/voices) for running the container
// yourself. With KOKORO_API_KEY set, every route but /ping asks for the key first (api-key.ts);
// speech is then admitted (admission-gate.ts) before its body is read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Logger } from '@kokoro-speech/protocol/server';
import { SpeechError, asSpeechError } from '../tts/errors.ts';
import { handlePhonemize } from './phonemize.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { admitOrRefuse } from './admission-gate.ts';
import { bearerCheck, sendOpenAIUnauthorized, sendUnauthorized } from './api-key.ts';
import { sendError } from './error-response.ts';
import { handleInvocation } from './invocations.ts';
import { OpenAIError, sendOpenAIError } from './openai-error.ts';
import { handleOpenAIModels, handleOpenAISpeech, handleVoiceList } from './openai-speech.ts';
import type { ServerState } from './server-state.ts';
import { CAPTIONED_SPEECH_PATH } from './captioned-speech.ts';

const OPENAI_ROUTES: Record<string, { method: string }> = {
  '/v1/audio/speech': { method: 'POST' },
  '/v1/models': { method: 'GET' },
  '/v1/audio/voices': { method: 'GET' },
  // Kokoro-FastAPI's captioned speech (captioned-speech.ts), for its clients.
  [CAPTIONED_SPEECH_PATH]: { method: 'POST' },
};

/** The request listener of the HTTP server. */
export function httpRoutes(
  state: ServerState,
  log: Logger,
  apiKey?: string,
): (req: IncomingMessage, res: ServerResponse) => void {
  const authorized = bearerCheck(apiKey);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (authorized && path !== '/ping' && !authorized(req)) {
      log.info({ route: `${req.method} ${path}`, status: 401 }, 'unauthorized'); // never the header itself
      res.setHeader('connection', 'close'); // the body is not read
      return OPENAI_ROUTES[path] ? sendOpenAIUnauthorized(res) : sendUnauthorized(res);
    }
    route(state, log, req, res).catch((error) => {
      log.error({ err: error }, 'unhandled request error');
      sendError(res, new SpeechError('internal', 'internal error'));
    });
  };
}

async function route(state: ServerState, log: Logger, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { service, closing } = state;
  const path = (req.url ?? '/').split('?')[0];
  // An OpenAI request refused before its handler runs gets its log line here, with the status sent.
  const refuseOpenAI = (error: OpenAIError) => {
    sendOpenAIError(res, error);
    log.info({ route: `${req.method} ${path}`, status: error.status, code: error.code }, 'request done');
  };
  if (path === '/ping' && (req.method === 'GET' || req.method === 'HEAD')) {
    const ok = service !== undefined && !closing;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ status: ok ? 'healthy' : closing ? 'stopping' : 'loading' }));
  }
  if (path === '/invocations' && req.method === 'POST') {
    if (!service) return sendError(res, new SpeechError('overloaded', 'the model is still loading', 5));
    if (!admitRequest(service, 'POST /invocations', res, (error) => sendError(res, error))) return;
    return handleInvocation(req, res, service, randomUUID());
  }
  if (path === '/v1/phonemize') {
    if (req.method !== 'POST') return sendError(res, new SpeechError('invalid_message', 'use POST /v1/phonemize'));
    if (!service || closing) return sendError(res, new SpeechError('overloaded', 'the model is still loading', 5));
    return handlePhonemize(req, res, service).catch((error) => sendError(res, asSpeechError(error)));
  }
  // The OpenAI-compatible API (running the container yourself; SageMaker does not route here).
  const openai = OPENAI_ROUTES[path ?? ''];
  if (openai) {
    if (req.method !== openai.method) {
      return refuseOpenAI(new OpenAIError(405, `use ${openai.method} ${path}`, null, 'method_not_allowed'));
    }
    if (!service || closing) {
      return refuseOpenAI(
        OpenAIError.overloaded(closing ? 'the server is shutting down' : 'the model is still loading'),
      );
    }
    if (path === '/v1/audio/speech' || path === CAPTIONED_SPEECH_PATH) {
      const refuse = (error: SpeechError) => refuseOpenAI(OpenAIError.overloaded(error.message, error.retryAfterS));
      if (!admitRequest(service, `POST ${path}`, res, refuse)) return;
      return handleOpenAISpeech(req, res, service, path === CAPTIONED_SPEECH_PATH ? 'captioned' : 'speech');
    }
    if (path === '/v1/models') return handleOpenAIModels(res, state.startedAt);
    return handleVoiceList(res, service);
  }
  const known = path === '/ping' || path === '/invocations';
  res.writeHead(known ? 405 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code: 'invalid_message', message: `no route for ${req.method} ${path}` } }));
}

/**
 * Admission of one request, before its body is read: refused, it is answered with `refuse` and
 * its connection closed (the unread body is not worth reading); admitted, it counts until its
 * response closes, and as speaking at once (its text is queued as soon as the body is read).
 */
function admitRequest(
  service: SpeechService,
  route: string,
  res: ServerResponse,
  refuse: (error: SpeechError) => void,
): boolean {
  const entry = admitOrRefuse(service, 'request', route);
  if (!entry.admitted) {
    res.setHeader('connection', 'close');
    refuse(entry.error);
    return false;
  }
  res.once('close', entry.release);
  entry.speaking();
  return true;
}
