// The web server's part in sign-in: config.json (none, direct, same-origin), the gateway closed
// under --auth, the page's content security policy naming the provider and the stand-in, and in
// same-origin mode /runtimes/* passed to the real JWT stand-in as it came (refusals included).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { createJwtAuthorizer } from '../agentcore-stand-in/jwt-authorizer.ts';
import { startJwtStandIn, type JwtStandIn } from '../agentcore-stand-in/jwt-stand-in.ts';
import { startLocalOidcProvider, type LocalOidcProvider } from '../auth/oidc-provider.ts';
import { LOCAL_RUNTIME_ARN } from '../auth/local-auth.ts';
import { signInOverHttp } from '../testing/sign-in-over-http.ts';
import type { LocalAuthSettings } from './page-config.ts';
import { agentServerUpstream } from './upstream.ts';
import { startWebServer, type PageInfo, type WebServer } from './web-server.ts';

const info: PageInfo = {
  llm: { name: 'echo', description: 'echo' },
  model: { kind: 'stand-in', description: 'stand-in model' },
  target: { kind: 'local', description: 'local agent' },
};

/** In the agent's place: answers every turn with a done event; WebSockets echo. */
let agent: http.Server;
let agentUrl: URL;
beforeAll(async () => {
  agent = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: done\ndata: {}\n\n'));
  });
  const wss = new WebSocketServer({ server: agent });
  wss.on('connection', (ws) => ws.on('message', (d) => ws.send(`echo ${d}`)));
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', () => r()));
  agentUrl = new URL(`http://127.0.0.1:${(agent.address() as AddressInfo).port}`);
});
afterAll(async () => {
  agent.closeAllConnections();
  await new Promise<void>((r) => agent.close(() => r()));
});

const start = (auth: boolean) => startWebServer({ port: 0, info, upstream: agentServerUpstream(agentUrl), auth });
const get = (web: WebServer, path: string) => fetch(new URL(path, web.url));
/** A GET with this Host header (fetch sets its own). */
const getAs = (web: WebServer, path: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: web.port, path, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });

test('without sign-in, config.json says so and the page connects to its own origin only', async () => {
  const web = await start(false);
  try {
    expect(await (await get(web, '/config.json')).json()).toEqual({
      region: null,
      runtimeArn: null,
      qualifier: null,
      mode: 'same-origin',
      info: '/api/info',
      auth: null,
    });
    expect((await get(web, '/')).headers.get('content-security-policy')).toContain("connect-src 'self';");
  } finally {
    await web.close();
  }
});

describe('with sign-in (npm start --auth)', () => {
  let web: WebServer;
  let provider: LocalOidcProvider;
  let standIn: JwtStandIn;
  let settings: LocalAuthSettings;
  beforeAll(async () => {
    web = await start(true);
    provider = await startLocalOidcProvider({ redirectUris: web.origins.map((o) => `${o}/`) });
    standIn = await startJwtStandIn({
      agentUrl,
      runtimeArn: LOCAL_RUNTIME_ARN,
      authorizer: await createJwtAuthorizer({
        discoveryUrl: provider.discoveryUrl,
        allowedClients: [provider.clientId],
      }),
    });
    settings = {
      mode: 'direct',
      region: 'us-east-1',
      runtimeArn: LOCAL_RUNTIME_ARN,
      qualifier: 'DEFAULT',
      endpoint: standIn.endpoint,
      authority: provider.issuer,
      clientId: provider.clientId,
      scope: 'openid profile email',
    };
  });
  afterAll(async () => {
    await web?.close();
    await standIn?.close();
    await provider?.close();
  });

  test('config.json waits for the sign-in to be up; the gateway is closed (SSE and WebSocket)', async () => {
    expect((await get(web, '/config.json')).status).toBe(503);
    const turn = await fetch(new URL('/api/invocations', web.url), { method: 'POST', body: '{"prompt":"hi"}' });
    expect([turn.status, ((await turn.json()) as { error: { code: string } }).error.code]).toEqual([
      401,
      'unauthorized',
    ]);
    const ws = await new Promise<number>((resolve) => {
      const socket = new WebSocket(new URL('/api/ws', web.url.replace('http', 'ws')));
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    expect(ws).toBe(401);
  });

  test('direct: config.json names the provider, the client and the stand-in, for the origin the browser used', async () => {
    web.useAuth(settings);
    const answer = await getAs(web, '/config.json', `localhost:${web.port}`);
    expect(JSON.parse(answer.body)).toEqual({
      region: 'us-east-1',
      runtimeArn: LOCAL_RUNTIME_ARN,
      qualifier: 'DEFAULT',
      mode: 'direct',
      endpoint: standIn.endpoint,
      info: '/api/info',
      auth: {
        authority: provider.issuer,
        clientId: provider.clientId,
        redirectUri: `http://localhost:${web.port}/`,
        postLogoutRedirectUri: `http://localhost:${web.port}/`,
        scope: 'openid profile email',
      },
    });
    const csp = (await get(web, '/')).headers.get('content-security-policy');
    expect(csp).toContain(
      `connect-src 'self' ${provider.issuer} ${standIn.endpoint} ${standIn.endpoint.replace('http', 'ws')};`,
    );
    expect((await get(web, `/runtimes/x/invocations`)).status).toBe(404); // not passed on in direct mode
    // Another site's page may not read it (DNS rebinding: the right address, another name).
    expect((await getAs(web, '/config.json', `evil.example:${web.port}`)).status).toBe(403);
  });

  test('same-origin: /runtimes/* goes to the stand-in as it came; its refusals come back as they are', async () => {
    web.useAuth({ ...settings, mode: 'same-origin' });
    expect(((await (await get(web, '/config.json')).json()) as { endpoint?: string }).endpoint).toBeUndefined();
    const path = `/runtimes/${encodeURIComponent(LOCAL_RUNTIME_ARN)}`;
    const refused = await fetch(new URL(`${path}/invocations?qualifier=DEFAULT`, web.url), {
      method: 'POST',
      body: '{}',
    });
    expect([refused.status, refused.headers.get('www-authenticate'), await refused.json()]).toEqual([
      401,
      'Bearer error="invalid_token"',
      { message: expect.stringMatching(/no bearer token/) },
    ]);
    const { accessToken } = await signInOverHttp({
      issuer: provider.issuer,
      clientId: provider.clientId,
      redirectUri: `${web.origins[0]}/`,
      username: 'bob',
      password: 'bob-listens',
    });
    const turn = await fetch(new URL(`${path}/invocations?qualifier=DEFAULT`, web.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: '{}',
    });
    expect([turn.status, await turn.text()]).toEqual([200, 'event: done\ndata: {}\n\n']);
    const wsBase = `${web.url.replace('http', 'ws')}${path.slice(1)}/ws?qualifier=DEFAULT`;
    const noToken = await new Promise<{ status: number; body: string }>((resolve) => {
      const socket = new WebSocket(wsBase);
      socket.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    expect(noToken).toEqual({ status: 401, body: expect.stringContaining('no bearer token') });
    const echoed = await new Promise<string>((resolve, reject) => {
      const socket = new WebSocket(wsBase, { headers: { authorization: `Bearer ${accessToken}` } });
      socket.on('open', () => socket.send('hi'));
      socket.on('message', (d) => {
        resolve(String(d));
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(echoed).toBe('echo hi');
  });
});
