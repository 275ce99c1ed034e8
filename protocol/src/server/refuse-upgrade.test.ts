import { afterEach, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { refuseUpgrade, type Refusal } from './refuse-upgrade.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** What a real WebSocket client sees when the server refuses its upgrade. */
async function refusedWith(status: number, refusal?: Refusal) {
  server = createServer();
  server.on('upgrade', (_req, socket) => refuseUpgrade(socket, status, refusal));
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
  });
}

test('a status with a text body and extra headers', async () => {
  const seen = await refusedWith(503, { body: 'busy, retry soon', headers: { 'Retry-After': 2 } });
  expect(seen.status).toBe(503);
  expect(seen.body).toBe('busy, retry soon');
  expect(seen.headers).toMatchObject({
    'content-type': 'text/plain',
    'content-length': '16',
    'retry-after': '2',
    connection: 'close',
  });
});

test('a bare status has an empty body and no content type', async () => {
  const seen = await refusedWith(404);
  expect(seen.status).toBe(404);
  expect(seen.body).toBe('');
  expect(seen.headers['content-type']).toBeUndefined();
  expect(seen.headers['content-length']).toBe('0');
});
