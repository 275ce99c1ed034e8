// The agent's turn WebSocket as both callers (a typed prompt, a spoken turn) open and end it:
// directly under the agent's URL, or presigned for AgentCore.
import WebSocket from 'ws';
import { newRuntimeSessionId, type AgentCoreTarget } from '../agentcore/agentcore.ts';

export function withSlash(base: URL): URL {
  const u = new URL(base);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u;
}

/** The agent's turn WebSocket under an http(s) base URL (the session as a query parameter). */
export function wsUrl(base: URL, sessionId: string | undefined): string {
  const u = new URL('ws', withSlash(base));
  u.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  if (sessionId !== undefined) u.searchParams.set('session', sessionId);
  return u.toString();
}

/** Opens the turn WebSocket to `target` (binary frames as Buffers). */
export async function openAgentSocket(
  target: URL | AgentCoreTarget,
  sessionId: string | undefined,
): Promise<WebSocket> {
  const url =
    target instanceof URL
      ? wsUrl(target, sessionId)
      : await target.presignWebSocket(sessionId ?? newRuntimeSessionId());
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.binaryType = 'nodebuffer';
  return ws;
}

/** Ends the socket once its turn is over: the close it causes, and any late error, are no longer the caller's. */
export function closeAgentSocket(ws: WebSocket, signal: AbortSignal | undefined, abort: () => void): void {
  signal?.removeEventListener('abort', abort);
  ws.removeAllListeners('close');
  ws.on('error', () => {});
  ws.close();
}
