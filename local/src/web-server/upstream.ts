// Where the web server sends turns: an agent server (the local one, or any URL), or a deployed
// AgentCore runtime through the gateway (InvokeAgentRuntime for SSE, presigned /ws for WebSocket).
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { AgentCoreTarget } from '../agentcore/agentcore.ts';

export interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: Readable;
}

export interface Upstream {
  /** Shown on the page and the console. */
  readonly label: string;
  /** POST the turn request; the body is the agent's SSE stream. */
  invoke(body: Buffer, sessionId: string, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** The ws(s):// URL to open for one WebSocket session. */
  webSocketUrl(sessionId: string): Promise<string>;
  /** Headers to open it with (an agent server gets the session as AgentCore passes it on). */
  webSocketHeaders?(sessionId: string): Record<string, string>;
  close(): void;
}

/** An agent server reachable over HTTP (POST /invocations, GET /ws). */
export function agentServerUpstream(base: URL): Upstream {
  const lib = base.protocol === 'https:' ? https : http;
  const agent = new lib.Agent({ keepAlive: true });
  return {
    label: base.origin,
    invoke(body, sessionId, signal) {
      const send = (retried: boolean): Promise<UpstreamAnswer> =>
        new Promise((resolve, reject) => {
          const req = lib.request(new URL('/invocations', base), {
            method: 'POST',
            agent,
            signal,
            headers: {
              'content-type': 'application/json',
              accept: 'text/event-stream',
              'content-length': body.byteLength,
              'x-amzn-bedrock-agentcore-runtime-session-id': sessionId, // as AgentCore passes it on
            },
          });
          req.on('error', (err: NodeJS.ErrnoException) => {
            // An idle keep-alive socket the agent closed just as this request went out: the agent
            // never read it, so it is sent once more on a new socket (Node's documented remedy:
            // https://nodejs.org/api/http.html#requestreusedsocket).
            if (req.reusedSocket && err.code === 'ECONNRESET' && !retried && !signal.aborted) resolve(send(true));
            else reject(err);
          });
          req.on('response', (res) =>
            resolve({
              status: res.statusCode ?? 502,
              contentType: res.headers['content-type'] ?? 'text/plain',
              body: res,
            }),
          );
          req.end(body);
        });
      return send(false);
    },
    async webSocketUrl() {
      const u = new URL('/ws', base);
      u.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
      return u.toString();
    },
    webSocketHeaders: (sessionId) => ({ 'x-amzn-bedrock-agentcore-runtime-session-id': sessionId }),
    close: () => agent.destroy(),
  };
}

/** A deployed AgentCore runtime, called with the user's AWS credentials. */
export function agentCoreUpstream(target: AgentCoreTarget): Upstream {
  return {
    label: target.runtime.arn,
    async invoke(body, sessionId, signal) {
      const out = await target.invoke(body, sessionId, signal);
      return { status: 200, contentType: out.contentType, body: out.body };
    },
    webSocketUrl: (sessionId) => target.presignWebSocket(sessionId),
    close: () => target.destroy(),
  };
}
