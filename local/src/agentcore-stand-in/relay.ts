// How an AgentCore stand-in passes an accepted call on to the agent server behind it, as AgentCore
// passes calls to its container: POST /invocations (the answer streamed back as it comes) and GET /ws
// (frames both ways; early frames wait for the agent's socket), with the session id in the
// X-Amzn-Bedrock-AgentCore-Runtime-Session-Id header.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import WebSocket from 'ws';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { sendJsonError } from '@kokoro-speech/protocol/server';

export const SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/**
 * POSTs the call's body (read already, or still streaming in) to the agent's /invocations with
 * `headers`, and streams its answer back with `responseHeaders` added. Resolves when it is over.
 */
export function relayInvocation(
  agent: URL,
  body: Buffer | IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
  responseHeaders: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve) => {
    const up = http.request(new URL('/invocations', agent), { method: 'POST', headers });
    res.on('close', () => up.destroy()); // the caller left or barged in: the agent's turn is cancelled
    up.on('error', (err) => {
      sendJsonError(res, 502, { message: `the agent is not reachable: ${errorMessage(err)}` }, responseHeaders);
      resolve();
    });
    up.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, {
        'content-type': answer.headers['content-type'] ?? 'application/json',
        'cache-control': 'no-cache',
        ...responseHeaders,
      });
      res.flushHeaders();
      pipeline(answer, res).then(resolve, () => resolve());
    });
    if (Buffer.isBuffer(body)) up.end(body);
    else body.pipe(up);
  });
}

/** Frames the agent sent before the caller's side was joined, and the listener holding them. */
interface Held {
  frames: [WebSocket.RawData, boolean][];
  listener: (data: WebSocket.RawData, binary: boolean) => void;
}

export type AgentSocket =
  { socket: WebSocket; held: Held } | { refused: { status: number; body: string; contentType: string | undefined } };

/**
 * Opens the agent's /ws with `headers` before the caller's handshake is answered, so that the
 * agent's own refusal (a 403 for another user's session, a 400) reaches the caller as its
 * handshake's answer; an agent that cannot be reached is a 502.
 */
export function openAgentWebSocket(agent: URL, headers: Record<string, string>): Promise<AgentSocket> {
  const url = new URL('/ws', agent);
  url.protocol = agent.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { perMessageDeflate: false, headers });
    socket.once('open', () => {
      const frames: Held['frames'] = [];
      const listener: Held['listener'] = (data, binary) => frames.push([data, binary]);
      socket.on('message', listener);
      resolve({ socket, held: { frames, listener } });
    });
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ refused: { status: res.statusCode ?? 502, body, contentType: res.headers['content-type'] } });
      });
      res.on('error', () => resolve({ refused: { status: 502, body: '', contentType: undefined } }));
    });
    socket.once('error', (err) =>
      resolve({
        refused: {
          status: 502,
          body: JSON.stringify({ message: `the agent is not reachable: ${errorMessage(err)}` }),
          contentType: 'application/json',
        },
      }),
    );
  });
}

/** Joins the caller's socket to the agent's: frames both ways, and each close to the other side. */
export function joinWebSockets(client: WebSocket, upstream: WebSocket, held?: Held): void {
  if (held) {
    upstream.off('message', held.listener);
    for (const [data, binary] of held.frames.splice(0)) client.send(data, { binary });
  }
  client.on('message', (data, binary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
  });
  upstream.on('message', (data, binary) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
  });
  // The agent's close code goes on (codes that cannot be sent become 1011, an internal error).
  upstream.on('close', (code, reason) => {
    if (client.readyState === WebSocket.OPEN)
      client.close(code === 1005 || code === 1006 ? 1011 : code, reason.toString().slice(0, 120));
  });
  upstream.on('error', (err) => {
    if (client.readyState === WebSocket.OPEN) client.close(1011, `agent: ${errorMessage(err)}`.slice(0, 120));
  });
  client.on('close', () => upstream.terminate());
  client.on('error', () => upstream.terminate());
}
