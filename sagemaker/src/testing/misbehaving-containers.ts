// Container stand-ins that misbehave on purpose, for the router's backpressure and broken-stream
// tests: one floods (as fast as its own connection takes it) and counts, at its side of the wire,
// how many bytes it got out; one answers the WebSocket upgrade by hand so that it can then break the
// connection in ways `ws` would not (a reset, a frame no WebSocket peer may send); one breaks its
// POST /invocations body off mid-way.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';

/** RFC 6455 section 1.3: the GUID appended to Sec-WebSocket-Key. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface Flood {
  /** Bytes the container handed to its side of the connection (written out, not buffered by it). */
  flushed(): number;
  /** Settles once `stalledBytes` of its output could not get out: the reader stopped reading. */
  stalled: Promise<void>;
  /** Settles once all `totalBytes` are handed to the connection. */
  finished: Promise<void>;
  /** The SHA-256 of everything it sends. */
  digest: string;
}

export interface FloodOptions {
  totalBytes: number;
  chunkBytes: number;
  /** Output waiting at the container, past which it counts as stalled (and waits). */
  stalledBytes: number;
}

/** The i-th byte of the flood: the pattern shifts each chunk, so a lost or reordered chunk shows. */
const chunk = (index: number, bytes: number) => Buffer.alloc(bytes, (index * 31 + 7) & 0xff);

/**
 * Sends `totalBytes` through `write` (whose callback means: out of the container), one chunk per
 * event-loop turn so the reader gets its turn, never more than `stalledBytes` waiting.
 */
function flood(write: (bytes: Buffer, done: () => void) => void, options: FloodOptions): Flood {
  const { totalBytes, chunkBytes, stalledBytes } = options;
  const hash = createHash('sha256');
  for (let i = 0; i * chunkBytes < totalBytes; i++)
    hash.update(chunk(i, Math.min(chunkBytes, totalBytes - i * chunkBytes)));
  let sent = 0;
  let flushed = 0;
  let wake: (() => void) | null = null;
  const stalled = Promise.withResolvers<void>();
  const run = async () => {
    for (let i = 0; sent < totalBytes; i++) {
      const bytes = chunk(i, Math.min(chunkBytes, totalBytes - sent));
      while (sent - flushed >= stalledBytes) {
        stalled.resolve();
        await new Promise<void>((resolve) => (wake = resolve));
      }
      sent += bytes.length;
      write(bytes, () => {
        flushed += bytes.length;
        wake?.();
        wake = null;
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    while (flushed < totalBytes) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { flushed: () => flushed, stalled: stalled.promise, finished: run(), digest: hash.digest('hex') };
}

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

async function listen(server: Server, sockets: Set<Socket>): Promise<TestServer> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A container that floods: on each WebSocket session, binary messages; on each POST /invocations,
 * a chunked body. `floods` gets one Flood per session or request, in order.
 */
export async function startFloodingContainer(options: FloodOptions): Promise<TestServer & { floods: Flood[] }> {
  const floods: Flood[] = [];
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const f = flood((bytes, done) => void res.write(bytes, done), options);
    floods.push(f);
    void f.finished.then(() => res.end());
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => floods.push(flood((bytes, done) => ws.send(bytes, done), options)));
  return { ...(await listen(server, new Set())), floods };
}

/** What a hand-made container does once its WebSocket is open, or once a POST's body has begun. */
export type Breakage =
  | 'reset' // a TCP reset: the process died mid-stream
  | 'invalid-frame' // a frame with a reserved opcode, which a WebSocket client must fail on
  | 'drop'; // the connection closed with no close frame (WebSocket) or before the body's end (HTTP)

export interface BreakingContainer extends TestServer {
  /** Break every open session or response now. */
  breakAll(how: Breakage): void;
  /** Resolves with the first bytes any WebSocket session's client sent. */
  heard(): Promise<Buffer>;
}

/**
 * A container that answers the upgrade itself (RFC 6455 section 4.2.2), sends one binary message
 * per session, then waits for `breakAll`; POST /invocations gets a chunked 200 with one chunk.
 * It never reads what the client sends.
 */
export async function startBreakingContainer(): Promise<BreakingContainer> {
  const open: Socket[] = [];
  const heard = Promise.withResolvers<Buffer>();
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(Buffer.alloc(1000, 1));
    open.push(res.socket!);
  });
  server.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${WS_GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.write(Buffer.from([0x82, 0x03, 1, 2, 3])); // FIN + binary, 3 unmasked bytes
    socket.once('data', (bytes: Buffer) => heard.resolve(bytes));
    open.push(socket);
  });
  const sockets = new Set<Socket>();
  const base = await listen(server, sockets);
  return {
    ...base,
    breakAll: (how) => {
      for (const socket of open.splice(0)) {
        if (how === 'reset') socket.resetAndDestroy();
        else if (how === 'drop') socket.destroy();
        else socket.write(Buffer.from([0x83, 0x00])); // FIN + opcode 3 (reserved), empty
      }
    },
    heard: () => heard.promise,
  };
}
