// The web server on its own: static files, set-up info, who may use the turn endpoints, and what
// happens when the agent is unreachable. (Relaying real turns is covered by stack.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import net from 'node:net';
import WebSocket from 'ws';
import { agentServerUpstream } from './upstream.ts';
import { startWebServer, type PageInfo, type WebServer } from './web-server.ts';

const info: PageInfo = {
  llm: { name: 'echo', description: 'echo' },
  model: { kind: 'stand-in', description: 'stand-in model' },
  target: { kind: 'local', description: 'local agent' },
};

/** A port that refuses connections: the agent is not there. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let web: WebServer;
beforeAll(async () => {
  web = await startWebServer({
    port: 0,
    info,
    upstream: agentServerUpstream(new URL(`http://127.0.0.1:${await closedPort()}`)),
  });
});
afterAll(() => web.close());

const post = (headers: Record<string, string>, path = '/api/invocations') =>
  fetch(new URL(path, web.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"prompt":"hi"}',
  });

describe('web server', () => {
  test('binds to loopback and serves the page, its modules and the SSE parser', async () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(web.url);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('<textarea id="prompt"');
    for (const path of [
      '/app.js',
      '/audio-worklet.js',
      '/player.js',
      '/transports.js',
      '/timeline.js',
      '/vendor/eventsource-parser/index.js',
      '/vendor/eventsource-parser/parse.js',
    ]) {
      const res = await fetch(new URL(path, web.url));
      expect([path, res.status, res.headers.get('content-type')]).toEqual([
        path,
        200,
        'text/javascript; charset=utf-8',
      ]);
    }
    expect((await fetch(new URL('/styles.css', web.url))).status).toBe(200);
  });

  test('serves only its own files', async () => {
    for (const path of [
      '/../package.json',
      '/%2e%2e/package.json',
      '/vendor/eventsource-parser/../package.json',
      '/nope.js',
    ]) {
      expect((await fetch(new URL(path, web.url))).status).toBe(404);
    }
  });

  test('tells the page which LLM, model and agent are in use', async () => {
    expect(await (await fetch(new URL('/api/info', web.url))).json()).toEqual(info);
  });

  test('turns from another origin, or through another host name, are refused', async () => {
    const other = await post({ origin: 'http://evil.example' });
    expect(other.status).toBe(403);
    expect((await post({ origin: 'http://evil.example' }, '/invocations')).status).toBe(403);
    expect(JSON.stringify(await other.json())).toMatch(/only the page's own origin/);
    // DNS rebinding: the right address, someone else's name.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = net.connect(web.port, '127.0.0.1', () =>
        req.end(
          `POST /api/invocations HTTP/1.1\r\nHost: evil.example:${web.port}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
        ),
      );
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => resolve(Number(text.split(' ')[1])));
      req.on('error', reject);
    });
    expect(rebound).toBe(403);
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(new URL('/api/ws', web.url.replace('http', 'ws')), { origin: 'http://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
  });

  test('the page itself may post; an unreachable agent is a 502 naming the problem', async () => {
    const res = await post({ origin: web.url.slice(0, -1) });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: 'upstream', message: expect.stringMatching(/ECONNREFUSED/) } });
  });
});
