// A TCP proxy for tests and benchmarks: cuts every connection through it at once (a broken
// stream) and counts the bytes it carries.
import { createServer, connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface CutProxy {
  port: number;
  /** Bytes carried client -> target and target -> client since start. */
  bytes: { up: number; down: number };
  /** Destroy every open connection (both sides); new connections still work. */
  cutAll(): void;
  /** Refuse (destroy) every new connection from now on. */
  refuseNew(refuse: boolean): void;
  /** Connections refused since start (a client's tries while refusing). */
  readonly refused: number;
  close(): Promise<void>;
}

export async function startCutProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<CutProxy> {
  const sockets = new Set<Socket>();
  let refusing = false;
  let refused = 0;
  const bytes = { up: 0, down: 0 };
  const server = createServer({ noDelay: true }, (client) => {
    if (refusing) {
      refused++;
      return void client.destroy();
    }
    const upstream = connect({ port: targetPort, host: targetHost, noDelay: true });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.on('data', (chunk: Buffer) => {
      bytes.up += chunk.length;
    });
    upstream.on('data', (chunk: Buffer) => {
      bytes.down += chunk.length;
    });
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    bytes,
    cutAll: () => sockets.forEach((socket) => socket.resetAndDestroy()),
    refuseNew: (refuse) => {
      refusing = refuse;
    },
    get refused() {
      return refused;
    },
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
