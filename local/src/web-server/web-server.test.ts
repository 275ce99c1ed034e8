// The web server on its own: static files, set-up info, who may use the turn endpoints, and what
// happens when the agent is unreachable. (Relaying real turns is covered by stack.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import net from 'node:net';
import { networkInterfaces } from 'node:os';
import WebSocket from 'ws';
import { logCapture } from '@kokoro-speech/protocol/testing';
import { createLogger } from '@kokoro-speech/protocol/server';
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
      '/turn-state.js',
      '/turn-events.js',
      '/view.js',
      '/words.js',
      '/heard-marks.js',
      '/voices.js',
      '/vendor/kokoro-speech/turn-ws-framing.js',
      '/vendor/kokoro-speech/opus-framing.js',
      '/vendor/kokoro-speech/heard-cut.js',
      '/vendor/kokoro-speech/turn-limits.js',
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

  test('a body over the limit is a 413 and its connection is closed', async () => {
    const { status, closed } = await new Promise<{ status: number; closed: boolean }>((resolve, reject) => {
      const socket = net.connect(web.port, '127.0.0.1', () => {
        socket.write(
          `POST /api/invocations HTTP/1.1\r\nHost: 127.0.0.1:${web.port}\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n`,
        );
        socket.write(Buffer.alloc(512 * 1024));
      });
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('error', () => {}); // closed while we still send
      socket.on('close', () => resolve({ status: Number(text.split(' ')[1]), closed: true }));
      setTimeout(() => reject(new Error(`still open; got ${JSON.stringify(text)}`)), 5000).unref();
    });
    expect({ status, closed }).toEqual({ status: 413, closed: true });
  });

  test('the page itself may post; an unreachable agent is a 502 naming the problem', async () => {
    const res = await post({ origin: web.url.slice(0, -1) });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: 'upstream', message: expect.stringMatching(/ECONNREFUSED/) } });
  });
});

test('what fails on its side goes to its logger (service kokoro-web): the agent away (warn), a refusal (debug)', async () => {
  const logs = logCapture();
  const away = `http://127.0.0.1:${await closedPort()}`;
  const logged = await startWebServer({
    port: 0,
    info,
    upstream: agentServerUpstream(new URL(away)),
    logger: createLogger('kokoro-web', 'debug', logs.stream),
  });
  try {
    const turn = await fetch(new URL('/api/invocations', logged.url), { method: 'POST', body: '{"prompt":"hi"}' });
    expect(turn.status).toBe(502);
    const foreign = await fetch(new URL('/api/invocations', logged.url), {
      method: 'POST',
      headers: { origin: 'https://elsewhere.example' },
      body: '{}',
    });
    expect(foreign.status).toBe(403);
    const ws = new WebSocket(new URL('/api/ws', logged.url.replace(/^http/, 'ws')));
    const closed = await new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    expect(closed).toBe(1011);
  } finally {
    await logged.close();
  }
  expect(logs.lines).toEqual([
    expect.objectContaining({
      level: 40,
      service: 'kokoro-web',
      msg: 'the agent could not take the turn',
      path: '/api/invocations',
      status: 502,
      err: expect.objectContaining({ message: expect.stringMatching(/ECONNREFUSED/) }),
    }),
    expect.objectContaining({ level: 20, service: 'kokoro-web', status: 403, msg: expect.stringMatching(/origin/) }),
    expect.objectContaining({
      level: 40,
      service: 'kokoro-web',
      msg: "the agent's WebSocket failed",
      err: expect.objectContaining({ message: expect.stringMatching(/ECONNREFUSED/) }),
    }),
  ]);
});

describe('web server bound beyond loopback', () => {
  let wide: WebServer;
  beforeAll(async () => {
    wide = await startWebServer({
      host: '0.0.0.0',
      port: 0,
      info,
      allowedHosts: ['kokoro.lan'],
      upstream: agentServerUpstream(new URL(`http://127.0.0.1:${await closedPort()}`)),
    });
  });
  afterAll(() => wide.close());

  /** POSTs a turn over a raw socket with this Host header (and the matching Origin); the status. */
  const postAs = (host: string) =>
    new Promise<number>((resolve, reject) => {
      const req = net.connect(wide.port, '127.0.0.1', () =>
        req.write(
          `POST /api/invocations HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
        ),
      );
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => resolve(Number(text.split(' ')[1])));
      req.on('error', reject);
    });

  test('DNS rebinding: a name it does not serve is refused, whatever address it reached', async () => {
    expect(await postAs(`evil.example:${wide.port}`)).toBe(403);
    expect(await postAs(`kokoro.lan.evil.example:${wide.port}`)).toBe(403);
    expect(await postAs(`kokoro.lan:${wide.port + 1}`)).toBe(403);
  });

  test('loopback names, the allowed name and this machine serve the page (here: the agent is away, 502)', async () => {
    expect(await postAs(`127.0.0.1:${wide.port}`)).toBe(502);
    expect(await postAs(`localhost:${wide.port}`)).toBe(502);
    expect(await postAs(`KOKORO.lan:${wide.port}`)).toBe(502);
    const own = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal);
    if (own) expect(await postAs(`${own.address}:${wide.port}`)).toBe(502);
  });
});
