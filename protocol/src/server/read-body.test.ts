import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readBody } from './read-body.ts';

class TooLarge extends Error {}
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    readBody(req, 1000, (n) => new TooLarge(`${n} bytes`)).then(
      (body) => res.end(`ok ${body.byteLength}`),
      (error: Error) => res.writeHead(413, { connection: 'close' }).end(`${error.constructor.name} ${error.message}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function post(chunks: Buffer[], headers: Record<string, string | number> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

test('reads a body within the limit, whole', async () => {
  expect(await post([Buffer.alloc(600), Buffer.alloc(400)])).toBe('200 ok 1000');
});

test('refuses a declared length over the limit before reading it, with the caller error', async () => {
  expect(await post([Buffer.alloc(10)], { 'content-length': 5000 })).toBe('413 TooLarge 5000 bytes');
});

test('refuses a chunked body once the bytes read pass the limit', async () => {
  expect(await post([Buffer.alloc(800), Buffer.alloc(800)], { 'transfer-encoding': 'chunked' })).toBe(
    '413 TooLarge 1600 bytes',
  );
});

describe('given the response: a refused upload is not read and its connection is closed', () => {
  let refusing: Server;
  let refusingPort: number;
  const served: Socket[] = [];
  beforeAll(async () => {
    refusing = createServer((req, res) => {
      served.push(req.socket);
      readBody(req, 64 * 1024, (n) => new TooLarge(`${n} bytes`), res).then(
        (body) => res.end(`ok ${body.byteLength}`),
        (error: Error) => res.writeHead(413, { 'content-type': 'text/plain' }).end(`TooLarge ${error.message}`),
      );
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    refusingPort = (refusing.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => refusing.close(() => resolve())));

  /** Uploads 10 MiB as fast as the server takes it, over a raw socket, reading what comes back. */
  function upload(head: string, frame: (chunk: Buffer) => Buffer[]) {
    const socket = connect(refusingPort, '127.0.0.1');
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => {}); // the server closes while we still send: EPIPE / ECONNRESET
    socket.write(head);
    const pump = () => {
      while (!socket.destroyed && sent < 10 * 1024 * 1024) {
        sent += chunk.byteLength;
        const ok = frame(chunk)
          .map((b) => socket.write(b))
          .every(Boolean);
        if (!ok) return void socket.once('drain', pump);
      }
    };
    pump();
    return new Promise<{ answer: string; serverRead: number }>((resolve) =>
      socket.once('close', () => resolve({ answer, serverRead: served.at(-1)!.bytesRead })),
    );
  }

  test('a declared 10 MiB body: 413, then the connection closes with the upload unread', async () => {
    const { answer, serverRead } = await upload(
      `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n`,
      (c) => [c],
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 [^]*TooLarge 10485760 bytes/);
    expect(serverRead).toBeLessThan(1024 * 1024); // without this, Node reads all 10 MiB to keep the connection
  });

  test('a chunked 10 MiB body: 413 once past the limit, then the connection closes', async () => {
    const { answer, serverRead } = await upload(
      'POST / HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n',
      (c) => [Buffer.from(`${c.byteLength.toString(16)}\r\n`), c, Buffer.from('\r\n')],
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 [^]*TooLarge \d+ bytes/);
    expect(serverRead).toBeLessThan(1024 * 1024);
  });

  test('a body within the limit is read whole, and the connection stays usable', async () => {
    const body = Buffer.alloc(60 * 1024, 0x62);
    const socket = connect(refusingPort, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    const request = `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${body.byteLength}\r\n\r\n`;
    socket.write(request);
    socket.write(body);
    socket.write(request);
    socket.end(body);
    await new Promise((resolve) => socket.once('close', resolve));
    expect(text.match(/ok 61440/g)).toHaveLength(2);
  });
});
