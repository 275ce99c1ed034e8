import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
