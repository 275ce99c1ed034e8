// The JWT stand-in tests' other end and tokens: a recording peer in the agent's place, a WebSocket
// opened as the page or the CLI opens it, and tokens tampered with or waited out.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** AgentCore's session header, as the stand-in passes it on. */
export const SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/** In the agent's place: records each call's headers; a session named "refused-..." gets a 403. */
export interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
}
export async function recordingAgent(): Promise<{ url: URL; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: done\ndata: {"type":"done"}\n\n');
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    if (String(req.headers[SESSION_HEADER]).startsWith('refused-')) {
      socket.end(
        'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":{"code":"forbidden","message":"not yours"}}',
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send('hello from the agent');
      ws.on('message', (data) => ws.send(`echo ${data}`));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    seen,
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Opens the WebSocket; the handshake's status and body when refused. */
export function connect(
  url: string,
  options: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<{ ws: WebSocket; got: string[] } | { status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
    const got: string[] = []; // from the start: a first frame can come in with the handshake's answer
    ws.on('message', (d) => got.push(String(d)));
    ws.once('open', () => resolve({ ws, got }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    ws.once('error', reject);
  });
}

/** The token with its payload changed (another sub) and the signature kept. */
export function tampered(token: string): string {
  const [head, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  claims.sub = '9e4d2b17-3c58-4f0a-8e61-b0b000000002';
  return [head, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

/** Waits out the token's lifetime (its exp claim). */
export async function untilExpired(token: string): Promise<void> {
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const wait = exp * 1000 - Date.now() + 50;
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
