// The JWT stand-in at the wire: tokens from the real local provider (oidc-provider, signed in over
// HTTP as a browser does), SSE and WebSocket calls as the page and the CLI make them, and a
// recording peer in the agent's place that shows what was passed on, and that nothing was.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startLocalOidcProvider, type LocalOidcProvider } from '../auth/oidc-provider.ts';
import { signInOverHttp } from '../testing/sign-in-over-http.ts';
import { connect, recordingAgent, SESSION_HEADER, tampered, untilExpired } from '../testing/jwt-peers.ts';
import { bearerSubprotocols, WS_BEARER_PROTOCOL } from './bearer.ts';
import { createJwtAuthorizer } from './jwt-authorizer.ts';
import { startJwtStandIn, type JwtStandIn } from './jwt-stand-in.ts';

const ARN = 'arn:aws:bedrock-agentcore:us-east-1:123456789012:runtime/kokoro_test-0123456789';
const SESSION = 'test-session-0123456789abcdefghijklmnop';
const REDIRECT = 'http://127.0.0.1:3999/';

let provider: LocalOidcProvider;
let otherIssuer: LocalOidcProvider;
let shortLived: LocalOidcProvider;
let agent: Awaited<ReturnType<typeof recordingAgent>>;
let standIn: JwtStandIn;
const tokens: Record<'alice' | 'otherClient' | 'otherIssuer' | 'expired', string> = {
  alice: '',
  otherClient: '',
  otherIssuer: '',
  expired: '',
};

const signIn = (p: LocalOidcProvider, clientId = p.clientId) =>
  signInOverHttp({ issuer: p.issuer, clientId, redirectUri: REDIRECT, username: 'alice', password: 'alice-speaks' });

beforeAll(async () => {
  provider = await startLocalOidcProvider({
    redirectUris: [REDIRECT],
    extraClients: [{ clientId: 'another-app', redirectUris: [REDIRECT] }],
  });
  otherIssuer = await startLocalOidcProvider({ redirectUris: [REDIRECT] });
  shortLived = await startLocalOidcProvider({ redirectUris: [REDIRECT], tokenTtlS: 1 });
  agent = await recordingAgent();
  // The short-lived provider's tokens are for the stand-in below too: the same discovery, other keys.
  standIn = await startJwtStandIn({
    agentUrl: agent.url,
    runtimeArn: ARN,
    authorizer: await createJwtAuthorizer({ discoveryUrl: provider.discoveryUrl, allowedClients: [provider.clientId] }),
  });
  tokens.alice = (await signIn(provider)).accessToken;
  tokens.otherClient = (await signIn(provider, 'another-app')).accessToken;
  tokens.otherIssuer = (await signIn(otherIssuer)).accessToken;
  tokens.expired = (await signIn(shortLived)).accessToken;
});

afterAll(async () => {
  await standIn?.close();
  await agent?.close();
  for (const p of [provider, otherIssuer, shortLived]) await p?.close();
});

const invocations = (arn = ARN) =>
  `${standIn.endpoint}/runtimes/${encodeURIComponent(arn)}/invocations?qualifier=DEFAULT`;
const wsUrl = (session = SESSION) =>
  `${standIn.endpoint.replace('http', 'ws')}/runtimes/${encodeURIComponent(ARN)}/ws?qualifier=DEFAULT&X-Amzn-Bedrock-AgentCore-Runtime-Session-Id=${session}`;

const invoke = (headers: Record<string, string>, arn?: string) =>
  fetch(invocations(arn), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SESSION_HEADER]: SESSION, ...headers },
    body: '{"prompt":"hi"}',
  });

describe('accepted calls reach the agent with the token in Authorization', () => {
  test('SSE: the answer streams back; the agent gets the bearer token and the session id; a browser may read it', async () => {
    const before = agent.seen.length;
    const res = await invoke({ authorization: `Bearer ${tokens.alice}`, origin: 'http://127.0.0.1:3999' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3999');
    expect(res.headers.get(SESSION_HEADER)).toBe(SESSION);
    expect(await res.text()).toContain('event: done');
    const [call] = agent.seen.slice(before);
    expect(call!.path).toBe('/invocations');
    expect(call!.headers.authorization).toBe(`Bearer ${tokens.alice}`);
    expect(call!.headers[SESSION_HEADER]).toBe(SESSION);
  });

  test("SSE without a session id gets one made, as AgentCore does, and told in the answer's header", async () => {
    const res = await fetch(invocations(), {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}` },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get(SESSION_HEADER)).toMatch(/^[A-Za-z0-9_-]{33,256}$/);
  });

  test("a browser's preflight is answered", async () => {
    const res = await fetch(invocations(), {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:3999',
        'access-control-request-method': 'POST',
        'access-control-request-headers': `authorization, content-type, ${SESSION_HEADER}`,
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3999');
    expect(res.headers.get('access-control-allow-headers')).toMatch(
      /authorization.*x-amzn-bedrock-agentcore-runtime-session-id/,
    );
  });

  test("WebSocket with the browser's subprotocol pair: the sentinel is chosen, the agent gets Authorization and not the pair", async () => {
    const before = agent.seen.length;
    const opened = await connect(wsUrl(), { protocols: bearerSubprotocols(tokens.alice) });
    if (!('ws' in opened)) throw new Error(`refused: ${opened.status} ${opened.body}`);
    const { ws, got } = opened;
    expect(ws.protocol).toBe(WS_BEARER_PROTOCOL);
    ws.send('ping');
    await new Promise<void>((resolve) => {
      const check = () => (got.length >= 2 ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(got).toEqual(['hello from the agent', 'echo ping']);
    ws.close();
    const [call] = agent.seen.slice(before);
    expect(call!.path).toBe('/ws');
    expect(call!.headers.authorization).toBe(`Bearer ${tokens.alice}`);
    expect(call!.headers[SESSION_HEADER]).toBe(SESSION);
    expect(call!.headers['sec-websocket-protocol']).toBeUndefined();
  });

  test('WebSocket with an Authorization header (a client that can set headers)', async () => {
    const opened = await connect(wsUrl(), { headers: { authorization: `Bearer ${tokens.alice}` } });
    expect('ws' in opened).toBe(true);
    if ('ws' in opened) opened.ws.close();
  });

  test("the agent's own refusal of the WebSocket (a session of another user) is the handshake's answer", async () => {
    const opened = await connect(wsUrl('refused-0123456789abcdefghijklmnopqrstuv'), {
      protocols: bearerSubprotocols(tokens.alice),
    });
    expect(opened).toEqual(expect.objectContaining({ status: 403, body: expect.stringContaining('"forbidden"') }));
  });
});

describe('refused calls: a clear status and message, nothing passed on', () => {
  const cases: [string, () => Record<string, string>, number, RegExp][] = [
    ['no token', () => ({}), 401, /no bearer token/],
    ['not a Bearer header', () => ({ authorization: `Basic ${tokens.alice}` }), 401, /not "Bearer <token>"/],
    ['not a JWT', () => ({ authorization: 'Bearer not-a-jwt' }), 401, /not a JWT/],
    [
      'a tampered token',
      () => ({ authorization: `Bearer ${tampered(tokens.alice)}` }),
      401,
      /signature does not verify/,
    ],
    ['another issuer', () => ({ authorization: `Bearer ${tokens.otherIssuer}` }), 401, /issued by .*, not by/],
    [
      'another client',
      () => ({ authorization: `Bearer ${tokens.otherClient}` }),
      401,
      /client_id "another-app" is not an allowed client/,
    ],
    [
      'SigV4 to a JWT runtime',
      () => ({
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/bedrock-agentcore/aws4_request, SignedHeaders=host, Signature=00',
      }),
      403,
      /^Authorization method mismatch$/,
    ],
    [
      'a session id of the wrong form',
      () => ({ authorization: `Bearer ${tokens.alice}`, [SESSION_HEADER]: 'short' }),
      400,
      /33-256 characters/,
    ],
  ];

  test.each(cases)('SSE, %s', async (what, headers, status, message) => {
    const before = agent.seen.length;
    const res = await invoke(headers());
    const body = (await res.json()) as { message: string };
    expect([res.status, body.message]).toEqual([status, expect.stringMatching(message)]);
    if (status === 401) expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(agent.seen.length).toBe(before);
  });

  test('an expired token is named as expired, over SSE and WebSocket', async () => {
    await untilExpired(tokens.expired);
    // Its own provider's stand-in: the same checks, so it is the expiry that fails.
    const own = await startJwtStandIn({
      agentUrl: agent.url,
      runtimeArn: ARN,
      authorizer: await createJwtAuthorizer({
        discoveryUrl: shortLived.discoveryUrl,
        allowedClients: [shortLived.clientId],
      }),
    });
    try {
      const res = await fetch(`${own.endpoint}/runtimes/${encodeURIComponent(ARN)}/invocations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.expired}` },
        body: '{}',
      });
      expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
        401,
        expect.stringMatching(/the token expired/),
      ]);
      const before = agent.seen.length;
      const ws = await connect(`${own.endpoint.replace('http', 'ws')}/runtimes/${encodeURIComponent(ARN)}/ws`, {
        protocols: bearerSubprotocols(tokens.expired),
      });
      expect(ws).toEqual(expect.objectContaining({ status: 401, body: expect.stringContaining('the token expired') }));
      expect(agent.seen.length).toBe(before);
    } finally {
      await own.close();
    }
  });

  test('another runtime, or an endpoint it does not have, is a 404', async () => {
    const other = await invoke({ authorization: `Bearer ${tokens.alice}` }, ARN.replace('0123456789', '9876543210'));
    expect(other.status).toBe(404);
    const res = await fetch(invocations().replace('DEFAULT', 'nope'), {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}` },
    });
    expect([res.status, ((await res.json()) as { message: string }).message]).toEqual([
      404,
      'the runtime has no endpoint nope',
    ]);
  });

  const wsCases: [string, () => { protocols?: string[]; headers?: Record<string, string> }, number, RegExp][] = [
    ['no token', () => ({}), 401, /no bearer token/],
    [
      'the token subprotocol without the sentinel',
      () => ({ protocols: [bearerSubprotocols(tokens.alice)[0]] }),
      401,
      /without base64UrlBearerAuthorization after it/,
    ],
    [
      'the sentinel alone',
      () => ({ protocols: [WS_BEARER_PROTOCOL] }),
      401,
      /without a base64UrlBearerAuthorization\.<token>/,
    ],
    [
      'a token subprotocol that is not base64url',
      () => ({ protocols: [`${WS_BEARER_PROTOCOL}.a+b`, WS_BEARER_PROTOCOL] }),
      401,
      /not base64url/,
    ],
    ['a subprotocol token that is not a JWT', () => ({ protocols: bearerSubprotocols('just-text') }), 401, /not a JWT/],
    [
      'a tampered token',
      () => ({ protocols: bearerSubprotocols(tampered(tokens.alice)) }),
      401,
      /signature does not verify/,
    ],
    ['another issuer', () => ({ protocols: bearerSubprotocols(tokens.otherIssuer) }), 401, /not by/],
    ['another client', () => ({ protocols: bearerSubprotocols(tokens.otherClient) }), 401, /not an allowed client/],
  ];

  test.each(wsCases)('WebSocket, %s', async (what, options, status, message) => {
    const before = agent.seen.length;
    const refused = await connect(wsUrl(), options());
    expect(refused).toEqual(expect.objectContaining({ status }));
    if ('status' in refused) {
      expect(JSON.parse(refused.body).message).toMatch(message);
      expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
    expect(agent.seen.length).toBe(before);
  });

  test('WebSocket: a presigned SigV4 URL is a 403 mismatch; a session id of the wrong form a 400', async () => {
    const before = agent.seen.length;
    const presigned = await connect(`${wsUrl()}&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=00`);
    expect(presigned).toEqual(
      expect.objectContaining({ status: 403, body: '{"message":"Authorization method mismatch"}' }),
    );
    const badSession = await connect(wsUrl('short'), { protocols: bearerSubprotocols(tokens.alice) });
    expect(badSession).toEqual(
      expect.objectContaining({ status: 400, body: expect.stringContaining('33-256 characters') }),
    );
    expect(agent.seen.length).toBe(before);
  });
});
