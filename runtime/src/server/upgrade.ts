// GET /ws: the WebSocket upgrade of the agent server. Refused (refuseUpgrade) off that path, from
// an origin the policy does not allow, or with a malformed session header; else the connection is
// one conversation (ws-session.ts).
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import { newSessionId } from '../conversation/index.ts';
import type { AgentCore } from './agent-core.ts';
import { headerSession } from './session-header.ts';
import { WsSession } from './ws-session.ts';

/** Serves WebSocket turns on `server`'s upgrades; the returned server holds the connections. */
export function acceptWebSockets(server: Server, core: AgentCore): WebSocketServer {
  const { origins, sessions, log } = core;
  const wss = new WebSocketServer({ noServer: true, maxPayload: core.limits.maxRequestBytes });
  server.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '').split('?')[0] !== '/ws') {
      return refuseUpgrade(socket, 404);
    }
    const refused = origins.refusal(req);
    if (refused) {
      return refuseUpgrade(socket, 403, { body: refused });
    }
    let header: string | undefined;
    try {
      header = headerSession(req);
    } catch (error) {
      return refuseUpgrade(socket, 400, { body: errorMessage(error) });
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // The connection is one conversation: the header's session, else its own (never persisted,
      // dropped when the socket closes) unless a turn names another session.
      const connection = header ?? newSessionId('ws-connection');
      new WsSession(
        ws,
        (request, emit, signal, onRecord, flow) => {
          const named = request.session_id ?? header;
          return core.runTurn(request, named ?? connection, emit, signal, 'ws', flow, onRecord, named !== undefined);
        },
        () => {
          if (header === undefined) sessions.delete(connection);
        },
        core.listVoices,
        core.flowLimits,
        (reason) => log.warn({ reason }, 'caller dropped'),
      );
    });
  });
  return wss;
}
