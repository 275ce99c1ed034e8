import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseWriter } from './sse.ts';

let server: Server;
let url: string;
const results: { threw?: string; afterClose?: boolean }[] = [];
beforeAll(async () => {
  server = createServer((_req, res) => {
    const sse = new SseWriter(res);
    const result: { threw?: string; afterClose?: boolean } = {};
    try {
      sse.event('one', '{"a":1}');
      sse.event('multi', 'line 1\nline 2\r\nline 3');
      sse.event('bad\nname', 'x');
    } catch (error) {
      result.threw = (error as Error).message;
    } finally {
      sse.close();
      sse.close(); // idempotent
      result.afterClose = sse.event('late', 'x');
      results.push(result);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('frames events, splits multi-line data, refuses CR/LF in names, ignores writes after close', async () => {
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
  expect(await response.text()).toBe(
    'event: one\ndata: {"a":1}\n\nevent: multi\ndata: line 1\ndata: line 2\ndata: line 3\n\n',
  );
  expect(results).toEqual([
    { threw: 'SSE event name must be one non-empty line, got "bad\\nname"', afterClose: false },
  ]);
});
