// The local web server's JSON answers (its own routes and the phonemes relay): never cached.
import type http from 'node:http';

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-cache' }).end(text);
}
