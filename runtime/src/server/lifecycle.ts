// The agent server's life: listening (and the URLs it is reached at), and closing: stop
// accepting, cancel running turns, close the sockets (cut what is left after a moment), wait for
// the conversations' saves.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocketServer } from 'ws';
import type { AgentCore } from './agent-core.ts';

/** How long running turns get to send `done` after close() before their connections are cut. */
const DRAIN_MS = 1000;

/** Listens on host:port; the address it got, as URLs. */
export async function listen(
  server: Server,
  port: number,
  host: string,
): Promise<{ port: number; url: string; wsUrl: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return { port: address.port, url: `http://${shown}:${address.port}`, wsUrl: `ws://${shown}:${address.port}/ws` };
}

/** Stops accepting, cancels running turns, closes sockets, waits for session saves. */
export async function closeServer(server: Server, wss: WebSocketServer, core: AgentCore): Promise<void> {
  core.turns.cancelAll(new Error('server shutting down'));
  for (const client of wss.clients) client.close(1001, 'server shutting down');
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // Give running turns a moment to send done, then cut what is left.
  const timer = setTimeout(() => {
    server.closeAllConnections();
    for (const client of wss.clients) client.terminate();
  }, DRAIN_MS);
  await closed;
  clearTimeout(timer);
  wss.close();
  await core.closeSessions();
}
