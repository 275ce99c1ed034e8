// The agent-server upstream at the socket level: a keep-alive socket the agent closes just as a
// turn goes out is retried once on a new socket; a reset on a fresh socket is the caller's error.
import { afterEach, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { agentServerUpstream } from './upstream.ts';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** An agent that answers each socket's first request, and resets the socket on its second (or on every request). */
async function agent(resetFirst = false) {
  const requests: { socket: number; body: string }[] = [];
  const sockets = new Map<object, number>();
  server = http.createServer(async (req, res) => {
    const socket = sockets.get(req.socket) ?? sockets.set(req.socket, sockets.size).get(req.socket)!;
    const seen = requests.filter((r) => r.socket === socket).length;
    requests.push({ socket, body: await text(req) });
    if (resetFirst || seen > 0) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: done\ndata: {}\n\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const upstream = agentServerUpstream(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  return { upstream, requests };
}

const invoke = (upstream: ReturnType<typeof agentServerUpstream>, prompt: string) =>
  upstream.invoke(
    Buffer.from(JSON.stringify({ prompt })),
    'session-0123456789-0123456789-0123',
    new AbortController().signal,
  );

test('a reused keep-alive socket that the agent resets: sent once more on a new socket, answered', async () => {
  const { upstream, requests } = await agent();
  try {
    const first = await invoke(upstream, 'one');
    expect(await text(first.body)).toContain('event: done'); // read whole: the socket goes back to the pool
    const second = await invoke(upstream, 'two');
    expect(second.status).toBe(200);
    await text(second.body);
    // The second turn reached the agent twice: on the reused socket (reset), then on a new one.
    expect(requests.map((r) => [r.socket, JSON.parse(r.body).prompt])).toEqual([
      [0, 'one'],
      [0, 'two'],
      [1, 'two'],
    ]);
  } finally {
    upstream.close();
  }
});

test('a reset on a fresh socket is not retried: the caller gets the error', async () => {
  const { upstream, requests } = await agent(true);
  try {
    await expect(invoke(upstream, 'one')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toHaveLength(1);
  } finally {
    upstream.close();
  }
});
