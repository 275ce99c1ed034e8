// The agent server's HTTP routes: GET /ping (AgentCore's health check), POST /invocations (a turn
// as Server-Sent Events, or the voice list) with the origin policy and CORS, the caller's identity
// (identity.ts) and its sessions only, and a clear refusal for everything else. Every failure is
// answered as a RequestError's JSON body.
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
      if (!(error instanceof RequestError)) log.error({ err: error }, 'request failed');
      sendError(res, error, error instanceof RequestError && error.status === 503 ? { 'retry-after': '1' } : {});
    });
  };
}

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
  turns.admit(); // answer 503 before the event stream starts
  // Likewise 403 for someone else's session, 503 when no session can be made.
  if (sessionId !== undefined) await core.conversationFor(sessionId, caller);
  const sse = new SseWriter(res);
  const flow = new CallerOutput(
    { buffered: () => res.writableLength, gone: () => res.destroyed, drop: () => res.destroy() },
    core.flowLimits,
    (reason) => {
      log.warn({ reason }, 'caller dropped');
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
        if (!sse.closed) sse.event(type, JSON.stringify(payload), flow.written());
      },
      signal: gone.signal,
      via: 'sse',
      traceparent: traceparentHeader(req),
      flow,
      // The SSE response is the stream AgentCore times (60 minutes at most).
      streamLimitMs: core.streams.maxStreamMs - (performance.now() - opened),
    });
  } catch (error) {
    log.error({ err: error }, 'turn failed');
    sse.event('error', JSON.stringify({ code: 'internal', message: 'internal error' }));
    sse.event('done', '{}');
  } finally {
    sse.close();
  }
}
