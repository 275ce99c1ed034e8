// The agent server's HTTP routes: GET /ping (AgentCore's health check), POST /invocations (a turn
// as Server-Sent Events, or the voice list) with the origin policy and CORS, the caller's identity
// (identity.ts) and its sessions only, and a clear refusal for everything else. Every failure is
// answered as a RequestError's JSON body, and logged with the status actually sent (a caller that
// went away is logged at info, as gone). A turn is admitted before the event stream's 200: a busy
// agent answers 503, and the turn keeps the slot it was admitted with.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import type { AgentCore } from './agent-core.ts';
import { RequestError, readRequestBody, sendError } from './errors.ts';
import { parseInvocation } from './requests.ts';
import { headerSession, traceparentHeader } from './session-header.ts';
import { SseWriter } from './sse.ts';
import { CallerOutput } from './caller-flow.ts';
import { identityOf } from './identity.ts';

/** The request handler of the agent's HTTP server (the WebSocket upgrade is upgrade.ts). */
export function routes(core: AgentCore): (req: IncomingMessage, res: ServerResponse) => void {
  const { turns, origins, log } = core;
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handle = async () => {
      if (path === '/ping') {
        if (req.method !== 'GET' && req.method !== 'HEAD')
          throw new RequestError(405, 'method_not_allowed', 'use GET /ping');
        const body = JSON.stringify(turns.health.body());
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      } else if (path === '/invocations') {
        if (req.method === 'OPTIONS') return origins.preflight(req, res, 'POST');
        const refused = origins.refusal(req);
        if (refused) throw new RequestError(403, 'forbidden', refused);
        for (const [name, value] of Object.entries(origins.corsHeaders(req))) res.setHeader(name, value);
        if (req.method !== 'POST') throw new RequestError(405, 'method_not_allowed', 'use POST /invocations');
        await invocations(core, req, res);
      } else if (path === '/ws') {
        throw new RequestError(400, 'invalid_request', 'GET /ws needs a WebSocket upgrade');
      } else {
        throw new RequestError(
          404,
          'not_found',
          `no route ${req.method} ${path}; the routes are GET /ping, POST /invocations, GET /ws`,
        );
      }
    };
    handle().catch((error: unknown) => {
      const where = { method: req.method, path };
      if (callerGone(req, res)) {
        log.info({ ...where, reason: errorMessage(error) }, 'caller gone');
        return void res.destroy();
      }
      const sent = sendError(
        res,
        error,
        error instanceof RequestError && error.status === 503 ? { 'retry-after': '1' } : {},
      );
      const known = error instanceof RequestError;
      if (sent >= 500 || !known) log.error({ ...where, status: sent, err: error }, 'request failed');
      else log.info({ ...where, status: sent, code: error.code }, 'request refused');
    });
  };
}

/** The caller went away (or aborted its request) before it was answered. */
const callerGone = (req: IncomingMessage, res: ServerResponse): boolean =>
  res.destroyed || (req.destroyed && !req.complete);

/** POST /invocations: the voice list, or a turn streamed as Server-Sent Events. */
async function invocations(core: AgentCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { turns, log } = core;
  const opened = performance.now();
  const caller = identityOf(req); // 401 before the body is read
  const body = parseInvocation(await readRequestBody(req, res, core.limits.maxRequestBytes));
  if (body.kind === 'voices') {
    const list = await core.listVoices().catch((error: unknown) => {
      throw new RequestError(503, 'tts_unavailable', `cannot read the voice list: ${errorMessage(error)}`);
    });
    const json = JSON.stringify(list);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    return void res.end(json);
  }
  const { request } = body;
  const sessionId = request.session_id ?? headerSession(req);
  if (request.previous_played_ms !== undefined && sessionId === undefined)
    throw new RequestError(
      400,
      'invalid_request',
      'previous_played_ms needs a session: send session_id or the X-Amzn-Bedrock-AgentCore-Runtime-Session-Id header',
    );
  turns.validate(request); // answer 400 before the event stream starts
  // A caller that goes away (or AgentCore cutting the stream) cancels the turn at once.
  const gone = new AbortController();
  res.on('close', () => gone.abort(new Error('caller disconnected')));
  // 503 before the event stream starts: the slot is taken now and is the turn's (never re-checked).
  const admission = turns.admit();
  let ended = false; // the turn's terminal event was written
  try {
    // Likewise 403 for someone else's session, 503 when no session can be made.
    if (sessionId !== undefined) await core.conversationFor(sessionId, caller);
    const sse = new SseWriter(res);
    const flow = new CallerOutput(
      { buffered: () => res.writableLength, gone: () => res.destroyed, drop: () => res.destroy() },
      core.flowLimits,
      (reason) => {
        log.warn({ reason, session: sessionId }, 'caller dropped');
        gone.abort(new Error(reason));
      },
    );
    res.on('close', () => flow.closed());
    try {
      await core.runTurn(request, {
        sessionId,
        caller,
        emit: (event) => {
          const { type, ...data } = event;
          const payload =
            event.type === 'audio'
              ? { id: event.id, seq: event.seq, data: Buffer.from(event.data).toString('base64') }
              : data;
          if (type === 'done') ended = true;
          if (!sse.closed) sse.event(type, JSON.stringify(payload), flow.written());
        },
        signal: gone.signal,
        via: 'sse',
        traceparent: traceparentHeader(req),
        flow,
        admission,
        // The SSE response is the stream AgentCore times (60 minutes at most).
        streamLimitMs: core.streams.maxStreamMs - (performance.now() - opened),
      });
    } catch (error) {
      // Not the turn's own failure (that is its error event): a bug around it, or a refusal of
      // its session once the stream was open. The caller still gets one error and one done.
      const failure = asFailure(error);
      if (!(error instanceof RequestError)) log.error({ err: error, session: sessionId, status: 200 }, 'turn failed');
      if (!ended) {
        sse.event('error', JSON.stringify(failure));
        sse.event('done', '{}');
      }
    } finally {
      sse.close();
    }
  } finally {
    admission.release();
  }
}

/** What the caller is told of a throw around its turn: a refusal's code, else a bug's message. */
function asFailure(error: unknown): { code: string; message: string } {
  if (error instanceof RequestError) return { code: error.code, message: error.message };
  return { code: 'internal', message: `the turn failed: ${errorMessage(error)}` };
}
