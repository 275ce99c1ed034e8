// A TCP proxy in front of a container that counts its sessions at the wire: every TTS session is
// one connection (a WebSocket), so the connections open now are the container sessions a turn left
// open. It can also refuse new connections (a session that cannot be opened) and cut the open ones
// (a stream that breaks mid-answer). For the turn's fault tests: after any fault, none stays open.
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface SessionCounter {
  /** ws:// URL of the proxy (the transport adds the container's path). */
  wsUrl: string;
  /** Connections open now, and opened since start. */
  readonly open: number;
  readonly opened: number;
  /** Destroy (refuse) every new connection while true. */
  refuseNew(refuse: boolean): void;
  /** Cut every open connection, both sides. */
  cutAll(): void;
  /** Resolves once no connection is open; rejects after `ms` naming how many still are. */
  settled(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSessionCounter(targetPort: number): Promise<SessionCounter> {
  const clients = new Set<Socket>();
  let opened = 0;
  let refusing = false;
  let waiters: (() => void)[] = [];
  const server = createServer({ noDelay: true }, (client) => {
    client.on('error', () => {});
    if (refusing) return void client.destroy();
    opened++;
    clients.add(client);
    const upstream = connect({ port: targetPort, host: '127.0.0.1', noDelay: true });
    upstream.on('error', () => {});
    client.pipe(upstream).pipe(client);
    client.on('close', () => {
      upstream.destroy();
      clients.delete(client);
      if (clients.size === 0) for (const wake of waiters.splice(0)) wake();
    });
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    get open() {
      return clients.size;
    },
    get opened() {
      return opened;
    },
    refuseNew: (refuse) => void (refusing = refuse),
    cutAll: () => clients.forEach((socket) => socket.resetAndDestroy()),
    settled: (ms = 10_000) => {
      if (clients.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== wake);
          reject(new Error(`${clients.size} container session(s) still open ${ms} ms later`));
        }, ms);
        const wake = () => {
          clearTimeout(timer);
          resolve();
        };
        waiters.push(wake);
      });
    },
    close: async () => {
      clients.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
