// GET /ws: the WebSocket upgrade of the agent server. Refused (refuseUpgrade) off that path, from
// an origin the policy does not allow, with a malformed session header, with a token that is not
// a JWT naming a user (401), or naming a session that belongs to another caller (403); else the
// connection is one conversation (ws-session.ts) of the caller it was opened by. The bearer
// subprotocol is answered with its sentinel (identity.ts).
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import { newSessionId } from '../conversation/index.ts';
import type { AgentCore } from './agent-core.ts';
import { RequestError } from './errors.ts';
import { traceparentHeader, upgradeSession } from './session-header.ts';
import { chooseSubprotocol, identityOf, type CallerIdentity } from './identity.ts';
import { WsSession } from './ws-session.ts';
import { openVoice } from './voice-open.ts';
import { preemptAnswer } from './voice-preempt.ts';

/** Serves WebSocket turns on `server`'s upgrades; the returned server holds the connections. */
export function acceptWebSockets(server: Server, core: AgentCore): WebSocketServer {
  const { origins, sessions, log } = core;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: core.limits.maxRequestBytes,
    handleProtocols: (protocols) => chooseSubprotocol(protocols),
  });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== '/ws') {
      return refuseUpgrade(socket, 404);
    }
    const refused = origins.refusal(req);
    if (refused) {
      return refuseUpgrade(socket, 403, { body: refused });
    }
    let header: string | undefined;
    let caller: CallerIdentity | undefined;
    try {
      header = upgradeSession(req);
      caller = identityOf(req, true);
    } catch (error) {
      const status = error instanceof RequestError ? error.status : 400;
      const headers: Record<string, string> =
        status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {};
      return refuseUpgrade(socket, status, { body: errorMessage(error), headers });
    }
    // The caller's trace context: every turn of the connection is a child of it (tracing on).
    const traceparent = traceparentHeader(req);
    const upgrade = () => wss.handleUpgrade(req, socket, head, (ws) => accept(ws, header, caller, traceparent));
    if (header === undefined) return upgrade();
    // Someone else's session is refused at the door (its owner may be in the store: async).
    core.mayUse(header, caller).then(upgrade, (error: unknown) => {
      if (!(error instanceof RequestError)) log.error({ err: error }, 'upgrade failed');
      const known = error instanceof RequestError ? error : new RequestError(500, 'internal', 'internal error');
      refuseUpgrade(socket, known.status, { body: known.message });
    });
  });

  function accept(
    ws: WebSocket,
    header: string | undefined,
    caller: CallerIdentity | undefined,
    traceparent: string | undefined,
  ): void {
    // The connection is one conversation: the header's session, else its own (never persisted,
    // dropped when the socket closes) unless a turn names another session.
    const connection = header ?? newSessionId('ws-connection');
    new WsSession(ws, {
      startTurn: (request, emit, signal, onRecord, flow, streamLimitMs, voice) => {
        const named = request.session_id ?? header;
        return core.runTurn(request, {
          sessionId: named ?? connection,
          caller,
          emit,
          signal,
          via: 'ws',
          flow,
          onRecord,
          persist: named !== undefined,
          streamLimitMs,
          traceparent,
          ...(voice ? { voice } : {}),
        });
      },
      preempt: (request) => {
        const named = request.session_id ?? header;
        return preemptAnswer(core, request, { sessionId: named ?? connection, caller, persist: named !== undefined });
      },
      openVoice: (listen, host) =>
        openVoice(core.voice, listen, host, {
          defaultVoice: core.defaultVoice,
          maxFrameBytes: core.wsFrames.maxFrameBytes,
          validate: (request) => core.turns.validate(request),
        }),
      onClose: () => {
        if (header === undefined) sessions.delete(connection);
      },
      listVoices: core.listVoices,
      flowLimits: core.flowLimits,
      frames: core.wsFrames,
      streams: core.streams,
      onDrop: (reason) => log.warn({ reason }, 'caller dropped'),
      onOversize: (type, bytes) => log.error({ type, bytes }, 'event over the WebSocket frame limit'),
      onTurnError: (error) => log.error({ err: error, session: header ?? connection }, 'turn failed'),
    });
  }
  return wss;
}
