// Refusing a WebSocket upgrade: before the handshake there is no HTTP response object, only the
// socket, so the status line, headers and body are written by hand (as ws's own abortHandshake
// does) and the connection is closed.
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

export interface Refusal {
  /** Text body, sent as text/plain (none: an empty body). */
  body?: string;
  /** More headers (Retry-After, ...). */
  headers?: Record<string, string | number>;
}

export function refuseUpgrade(socket: Duplex, status: number, refusal: Refusal = {}): void {
  const body = refusal.body ?? '';
  const headers: Record<string, string | number> = {
    connection: 'close',
    ...(body === '' ? {} : { 'content-type': 'text/plain' }),
    'content-length': Buffer.byteLength(body),
    ...refusal.headers,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`);
}
