// The one error writer, over a real loopback server: the status, headers and length of a JSON body;
// a response whose status went out already is cut (the client sees the connection end early).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kokoroErrorBody, sendJsonError } from './send-json-error.ts';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/late') {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.write(Buffer.alloc(10));
      expect(sendJsonError(res, 503, kokoroErrorBody('overloaded', 'busy'))).toBe(false);
      return;
    }
    expect(sendJsonError(res, 503, kokoroErrorBody('overloaded', 'too busy', 2), { 'retry-after': '2' })).toBe(true);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('writes the status, the JSON body with its length, and the headers given', async () => {
  const res = await fetch(`${url}/now`);
  expect(res.status).toBe(503);
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('retry-after')).toBe('2');
  const text = await res.text();
  expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  expect(JSON.parse(text)).toEqual({ error: { code: 'overloaded', message: 'too busy', retry_after_s: 2 } });
});

test('a response already begun is cut, not answered with a second status', async () => {
  const outcome = await new Promise<string>((resolve) => {
    const req = request(`${url}/late`, (res) => {
      expect(res.statusCode).toBe(200);
      res.on('data', () => {});
      res.on('error', () => resolve('cut'));
      res.on('aborted', () => resolve('cut'));
      res.on('end', () => resolve('ended'));
    });
    req.on('error', () => resolve('cut'));
    req.end();
  });
  expect(outcome).toBe('cut');
});
