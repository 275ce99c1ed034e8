// What the real agent server on loopback refuses before a turn starts. Browser origins: pages of
// other sites cannot run turns (a text/plain POST needs no preflight, a WebSocket has no CORS),
// callers without an Origin (AgentCore, the CLI) always can, and allow-listed pages get CORS. The
// LLM is a fake OpenAI-compatible server, so a refused request is seen not to reach it. And a body
// over the size limit: refused, nothing more of it read, its connection closed.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { request } from 'node:http';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { startTestContainer, type TestContainer } from '../testing/harness.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { sseTurn } from '../testing/turn-clients.ts';
import { OriginPolicy, normalizeOrigin } from './origins.ts';

let container: TestContainer;
let fake: FakeLlmServer;
let closed: AgentServer; // no allow-list
let open: AgentServer; // allows https://app.example.com
beforeAll(async () => {
  container = await startTestContainer();
  fake = await startFakeOpenAI({ chunkDelayMs: 1 });
  const common = {
    llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
  };
  closed = await startAgentServer(common);
  open = await startAgentServer({ ...common, allowedOrigins: ['https://app.example.com:443'] });
});
afterAll(async () => {
  await closed?.close();
  await open?.close();
  await fake?.close();
  await container?.close();
});

/** A form-style cross-site POST, as any page can send without a preflight. */
function textPlainPost(
  url: string,
  origin: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/invocations`,
      { method: 'POST', headers: { 'content-type': 'text/plain', origin } },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ prompt: 'Spend my credit.' }));
  });
}

function wsStatus(url: string, origin?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', reject);
  });
}

describe('agent server: browser origins', () => {
  test('a cross-origin text/plain POST is refused with 403 forbidden and never reaches the LLM', async () => {
    const before = fake.requests.length;
    const refused = await textPlainPost(closed.url, 'http://evil.example');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toEqual({
      error: { code: 'forbidden', message: expect.stringMatching(/"http:\/\/evil\.example" .*ALLOWED_ORIGINS/) },
    });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    // Allow-listed elsewhere does not mean allowed here, and an allow-list refuses what is not on it.
    expect((await textPlainPost(closed.url, 'https://app.example.com')).status).toBe(403);
    expect((await textPlainPost(open.url, 'https://evil.example')).status).toBe(403);
    expect((await textPlainPost(open.url, 'null')).status).toBe(403);
    expect(fake.requests.length).toBe(before);
  });

  test('a WebSocket with a foreign Origin is refused at the upgrade', async () => {
    expect(await wsStatus(closed.wsUrl, 'http://evil.example')).toBe(403);
    expect(await wsStatus(open.wsUrl, 'http://app.example.com')).toBe(403); // http, not https
    expect(await wsStatus(open.wsUrl, 'https://app.example.com')).toBe(101);
  });

  test('no Origin header (AgentCore, the CLI) is served as before', async () => {
    const { status, events } = await sseTurn(closed.url, { prompt: 'Hello there.' });
    expect(status).toBe(200);
    expect(events.at(-1)).toEqual({ type: 'done' });
    expect(await wsStatus(closed.wsUrl)).toBe(101);
  });

  test('an allow-listed page runs turns and gets CORS headers; its preflight is answered', async () => {
    const { status, events } = await sseTurn(
      open.url,
      { prompt: 'Hello from the app.' },
      { headers: { origin: 'https://app.example.com' } },
    );
    expect(status).toBe(200);
    expect(events.at(-1)).toEqual({ type: 'done' });
    const allowed = await textPlainPost(open.url, 'https://app.example.com');
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const preflight = await fetch(`${open.url}/invocations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/content-type/);
    const foreign = await fetch(`${open.url}/invocations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('agent server: a request over the size limit', () => {
  test.each([
    ['declared', (n: number) => `content-length: ${n}`],
    ['chunked', () => 'transfer-encoding: chunked'],
  ])('a %s 10 MiB body gets its 413 and its connection is closed, the upload left unread', async (_kind, header) => {
    const total = 10 * 1024 * 1024;
    const socket = connect(closed.port, '127.0.0.1');
    socket.on('error', () => {}); // the agent closes while we still send
    socket.write(`POST /invocations HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n${header(total)}\r\n\r\n`);
    const chunked = header(0).startsWith('transfer');
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (!socket.destroyed && sent < total) {
        sent += chunk.byteLength;
        const parts = chunked
          ? [Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]
          : [chunk];
        if (!parts.map((p) => socket.write(p)).every(Boolean)) return void socket.once('drain', pump);
      }
    };
    pump();
    let answer = '';
    socket.on('data', (d) => (answer += d));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/"code":"payload_too_large"/);
    expect(sent - socket.writableLength).toBeLessThan(total); // it was never all read
  });
});

describe('origin allow-list entries', () => {
  test('are normalised origins; anything else is refused by name', () => {
    expect(normalizeOrigin(' HTTPS://App.Example.com:443 ')).toBe('https://app.example.com');
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173');
    expect(() => normalizeOrigin('app.example.com')).toThrow(/"app\.example\.com" is not an origin/);
    expect(() => normalizeOrigin('https://app.example.com/path')).toThrow(/scheme:\/\/host\[:port\] only/);
    expect(() => normalizeOrigin('ftp://files.example')).toThrow(/not an http\(s\) origin/);
    expect(() => new OriginPolicy(['nope'])).toThrow(/not an origin/);
  });
});
