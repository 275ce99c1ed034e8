// A TCP gate for tests and benchmarks in front of a container: the next N connections (or all,
// while `refuseAll`) get the container's admission refusal (HTTP 503 + Retry-After, its JSON
// body) to whatever they ask (WebSocket upgrade or POST); the others are piped to the container.
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface RefusingGate {
  url: string;
  port: number;
  /** Refuse the next `n` connections. */
  refuseNext(n: number): void;
  /** Refuse every connection while true (turning it on also cuts the connections piped now,
   *  so that kept-alive HTTP connections do not slip past). */
  refuseAll(refuse: boolean): void;
  /** Connections refused so far. */
  refused: number;
  close(): Promise<void>;
}

export const REFUSAL_BODY = JSON.stringify({
  error: {
    code: 'overloaded',
    message: 'one more session would make an admitted one run dry; retry later',
    retry_after_s: 1,
  },
});

export async function startRefusingGate(targetPort: number): Promise<RefusingGate> {
  const sockets = new Set<Socket>();
  const piped = new Set<Socket>();
  let next = 0;
  let all = false;
  const gate: Omit<RefusingGate, 'url' | 'port' | 'close'> = {
    refuseNext: (n) => void (next = n),
    refuseAll: (refuse) => {
      all = refuse;
      if (refuse) for (const socket of piped) socket.destroy();
    },
    refused: 0,
  };
  const server = createServer({ noDelay: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (all || next > 0) {
      if (!all) next--;
      gate.refused++;
      client.once('data', () =>
        client.end(
          `HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}\r\nConnection: close\r\n\r\n${REFUSAL_BODY}`,
        ),
      );
      return;
    }
    const upstream = connect({ port: targetPort, host: '127.0.0.1', noDelay: true });
    sockets.add(upstream);
    piped.add(client);
    client.on('close', () => piped.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => {});
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(gate, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
