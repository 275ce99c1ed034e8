// Who is calling, over the real agent server on loopback: what identity.ts refuses with 401
// before anything is served (a header that is not a bearer JWT, a token without `sub`, malformed
// WebSocket subprotocols, two users at once), unit checks of the claims and of the subprotocol
// answered, and the CORS preflight that lets a page send the header. Refused requests never reach
// the LLM (a fake OpenAI-compatible server that counts them) nor the TTS (a closed port).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { OpenAIProvider } from '../llm/openai.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { BEARER_SUBPROTOCOL, chooseSubprotocol, identityOfToken, userKeyOf } from './identity.ts';
import { RequestError } from './errors.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { testSessionId as sessionId } from '../testing/harness.ts';
import { bearer, subprotocols, TEST_ISSUER, tokenFor, upgrade } from '../testing/signed-in.ts';

let fake: FakeLlmServer;
let server: AgentServer;
let common: Parameters<typeof startAgentServer>[0];
const agents: AgentServer[] = [];
beforeAll(async () => {
  fake = await startFakeOpenAI({ chunkDelayMs: 1 });
  // Nothing listens there: a request that got as far as the TTS would fail loudly.
  common = {
    llm: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }),
    tts: new WebSocketTransport({ url: 'ws://127.0.0.1:9' }),
  };
  server = await startAgentServer(common);
  agents.push(server);
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await fake?.close();
});

describe('identity of a token', () => {
  test('issuer and subject make the user; the key is a hash of both, never the subject itself', async () => {
    const alice = identityOfToken(await tokenFor('alice'), 'Authorization');
    expect(alice).toEqual({ issuer: TEST_ISSUER, subject: 'alice', key: userKeyOf(TEST_ISSUER, 'alice') });
    expect(alice.key).toMatch(/^[0-9a-f]{64}$/);
    const elsewhere = identityOfToken(await tokenFor('alice', 'https://other.example'), 'Authorization');
    expect(elsewhere.key).not.toBe(alice.key);
    expect(() => identityOfToken('a.b.c', 'Authorization')).toThrow(RequestError);
  });

  test('the server answers the sentinel when a bearer pair is offered, else as ws does (the first offered)', () => {
    expect(chooseSubprotocol(new Set([`${BEARER_SUBPROTOCOL}.abc`, BEARER_SUBPROTOCOL]))).toBe(BEARER_SUBPROTOCOL);
    expect(chooseSubprotocol(new Set(['chat', 'other']))).toBe('chat');
    expect(chooseSubprotocol(new Set([`${BEARER_SUBPROTOCOL}.abc`]))).toBe(false);
  });
});

describe('bad tokens: 401 unauthorized, nothing served', () => {
  test.each([
    ['not Bearer', 'Basic YWxpY2U6c2VjcmV0', /Bearer <JWT>/],
    ['not a JWT', 'Bearer not-a-token', /not a JWT/],
    ['a JWT without sub', 'no-sub', /no "sub" claim/],
  ])('SSE, %s', async (_name, value, message) => {
    const header = value === 'no-sub' ? `Bearer ${await tokenFor(null)}` : value;
    const response = await fetch(`${server.url}/invocations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: header },
      body: JSON.stringify({ prompt: 'Hello.', session_id: sessionId('bad') }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: expect.stringMatching(message) } });
  });

  test('WebSocket: a malformed subprotocol token, the sentinel alone, two users, a bad header: 401', async () => {
    const token = await tokenFor('alice');
    const refusals = [
      await upgrade(server.wsUrl, {}, [`${BEARER_SUBPROTOCOL}.not*base64url`, BEARER_SUBPROTOCOL]),
      await upgrade(server.wsUrl, {}, [
        `${BEARER_SUBPROTOCOL}.${Buffer.from('abc').toString('base64url')}`,
        BEARER_SUBPROTOCOL,
      ]),
      await upgrade(server.wsUrl, {}, [`${BEARER_SUBPROTOCOL}.${Buffer.from(token).toString('base64url')}`]),
      await upgrade(server.wsUrl, {}, [BEARER_SUBPROTOCOL]),
      await upgrade(server.wsUrl, await bearer('bob'), await subprotocols('alice')),
      await upgrade(server.wsUrl, { authorization: 'Bearer x.y' }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(refusals.map((r) => r.body)).toEqual([
      expect.stringMatching(/not base64url/),
      expect.stringMatching(/not a JWT/),
      expect.stringMatching(/needs the base64UrlBearerAuthorization subprotocol/),
      expect.stringMatching(/offered without a token/),
      expect.stringMatching(/different users/),
      expect.stringMatching(/not a JWT/),
    ]);
    expect(refusals[0]!.wwwAuthenticate).toBe('Bearer error="invalid_token"');
    expect(fake.requests).toHaveLength(0); // nothing reached the LLM
    // A session id of the wrong form is still a 400, with a token too.
    expect(
      (
        await upgrade(server.wsUrl, {
          ...(await bearer('alice')),
          'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': 'short',
        })
      ).status,
    ).toBe(400);
  });

  test('a CORS preflight allows the Authorization header', async () => {
    const open = await startAgentServer({ ...common, allowedOrigins: ['https://app.example.com'] });
    agents.push(open);
    const preflight = await fetch(`${open.url}/invocations`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/\bauthorization\b/);
  });
});
