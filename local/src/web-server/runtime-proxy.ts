// The same-origin path of npm start --auth: /runtimes/* on the page's own origin passed to the
// AgentCore stand-in as it came (all headers but Host; the WebSocket handshake too, so the
// stand-in's own answer, a refusal included, is what the browser gets), as the deployed page's
// CloudFront behavior passes /runtimes/* to AgentCore. By hand: node:http does it in a few lines,
// and the proxy packages add a dependency for less.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { refuseUpgrade, sendJsonError } from '@kokoro-speech/protocol/server';
import { errorMessage } from '@kokoro-speech/protocol/errors';

/** Headers of one hop only (RFC 9110 7.6.1), never passed on; Host is the target's own. */
const HOP = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding']);

function forwarded(req: IncomingMessage, upgrade: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP.has(name) || (name === 'upgrade' && !upgrade)) continue;
    headers[name] = value;
  }
  if (upgrade) headers['connection'] = 'Upgrade';
  return headers;
}

export function proxyRuntimeRequest(target: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const up = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: forwarded(req, false) });
    res.on('close', () => up.destroy());
    up.on('error', (err) => {
      sendJsonError(res, 502, { message: `the AgentCore stand-in is not reachable: ${errorMessage(err)}` });
      resolve();
    });
    up.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      res.flushHeaders();
      pipeline(answer, res).then(resolve, () => resolve());
    });
    req.pipe(up);
  });
}

export function proxyRuntimeUpgrade(target: URL, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const up = http.request(new URL(req.url ?? '/', target), { method: 'GET', headers: forwarded(req, true) });
  up.on('upgrade', (answer, upSocket, upHead) => {
    const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < answer.rawHeaders.length; i += 2)
      lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upHead.length > 0) socket.write(upHead);
    if (head.length > 0) upSocket.write(head);
    upSocket.pipe(socket).pipe(upSocket);
    const end = () => {
      socket.destroy();
      upSocket.destroy();
    };
    socket.on('error', end);
    upSocket.on('error', end);
    socket.on('close', end);
    upSocket.on('close', end);
  });
  // A refusal: its status, headers and body, as the stand-in gave them.
  up.on('response', (answer) => {
    const chunks: Buffer[] = [];
    answer.on('data', (c: Buffer) => chunks.push(c));
    answer.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'www-authenticate', 'x-amzn-errortype'])
        if (answer.headers[name]) headers[name] = String(answer.headers[name]);
      const body = Buffer.concat(chunks).toString('utf8');
      refuseUpgrade(socket, answer.statusCode ?? 502, { body, headers });
    });
  });
  up.on('error', (err) =>
    refuseUpgrade(socket, 502, { body: `the AgentCore stand-in is not reachable: ${errorMessage(err)}\n` }),
  );
  socket.on('error', () => up.destroy());
  up.end();
}
