// Test support for the client's wire tests: an HTTP/2 peer per test that hands each stream to the
// test (with the raw header list, pseudo-headers first), closed after the test; the example
// credentials; and the two hashes SigV4 is computed with, from node:crypto (independently of
// @smithy/signature-v4, to recompute signatures by the documented algorithm).
import { afterEach } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http2';
import type { Http2Server, IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';

export const TEST_CREDENTIALS = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-1',
};

export type OnStream = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, raw: string[]) => void;

/** A starter of HTTP/2 peers for the suite's tests: every peer a test starts is closed after it; resolves to its URL. */
export function suitePeers(): (onStream: OnStream) => Promise<string> {
  const servers: Http2Server[] = [];
  afterEach(async () => {
    const closing = servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    await Promise.all(closing);
  });
  return async (onStream) => {
    const server = createServer();
    servers.push(server);
    server.on('stream', onStream);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}

export const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
export const sha256hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
