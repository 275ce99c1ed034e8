// Sessions belong to users, end to end on loopback: real JWTs (signed here with jose, as an
// authorizer's issuer would; the agent decodes, AgentCore verified) in the Authorization header
// (SSE, the /ws upgrade) and in the WebSocket subprotocol pair; the echo model (the real Strands
// agent loop, conversation-aware) and the Kokoro container on the stand-in model. Another user, or
// an anonymous caller, presenting a user's session id is refused with 403 and sees nothing of it;
// the binding and the user-keyed store keys hold across an agent restart (file store); anonymous
// sessions stored before stay readable where they were. Bad tokens: identity.test.ts.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { LocalFileStorage, S3Storage } from '@strands-agents/sdk/storage';
import type { Storage } from '@strands-agents/sdk';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3StandIn } from '@kokoro-speech/weights/testing';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { storageKeyOf } from '../conversation/session-id.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { BEARER_SUBPROTOCOL, userKeyOf } from './identity.ts';
import { bearer, subprotocols, TEST_ISSUER, tokenFor, upgrade } from '../testing/signed-in.ts';
import { startTestContainer, testSessionId, textOf, type TestContainer } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';

const echo = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 });
let container: TestContainer;
const agents: AgentServer[] = [];
const dirs: string[] = [];
async function agent(store?: string | Storage): Promise<AgentServer> {
  const storage = typeof store === 'string' ? new LocalFileStorage(store) : store;
  const server = await startAgentServer({
    llm: echo,
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    ...(storage ? { sessions: { storage } } : {}),
  });
  agents.push(server);
  return server;
}
beforeAll(async () => {
  container = await startTestContainer();
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await container?.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const sessionId = testSessionId;
async function ask(server: AgentServer, prompt: string, session: string, headers: Record<string, string> = {}) {
  const turn = await sseTurn(server.url, { prompt, session_id: session }, { headers });
  return { ...turn, text: textOf(turn.events) };
}
const forbidden = { code: 'forbidden', message: expect.stringMatching(/belongs to another caller/) };

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('sessions belong to users', () => {
  test('SSE: the first user owns the session; another user or an anonymous caller gets 403 and nothing of it', async () => {
    const server = await agent();
    const x = sessionId('alice');
    const alice = await bearer('alice');
    const first = await ask(server, 'My name is Alice.', x, alice);
    expect(first.status).toBe(200);
    expect(first.events[0]).toMatchObject({ type: 'start', session_id: x });
    const stored = (await server.sessions.get(x).messages()).length;

    for (const intruder of [await bearer('bob'), {}]) {
      const refused = await ask(server, 'What did I say before?', x, intruder);
      expect(refused.status).toBe(403);
      expect(refused.events).toEqual([{ type: 'error', ...forbidden }]);
    }
    // The same id through AgentCore's session header is refused too.
    const viaHeader = await sseTurn(
      server.url,
      { prompt: 'What did I say before?' },
      { headers: { ...(await bearer('bob')), 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': x } },
    );
    expect(viaHeader.status).toBe(403);
    // Nothing was added to the conversation, and its owner goes on (a fresh token of the same user).
    expect((await server.sessions.get(x).messages()).length).toBe(stored);
    expect((await ask(server, 'What did I say before?', x, await bearer('alice'))).text).toBe(
      'You said: My name is Alice.',
    );
    // The same subject from another issuer is another user.
    const elsewhere = { authorization: `Bearer ${await tokenFor('alice', 'https://other.example')}` };
    expect((await ask(server, 'Hello there.', x, elsewhere)).status).toBe(403);
  });

  test('an anonymous session refuses a user, and one-shot turns need no session', async () => {
    const server = await agent();
    const y = sessionId('anon');
    expect((await ask(server, 'My name is Nobody.', y)).status).toBe(200);
    expect((await ask(server, 'What did I say before?', y, await bearer('carol'))).status).toBe(403);
    expect((await ask(server, 'What did I say before?', y)).text).toBe('You said: My name is Nobody.');
    const oneShot = await sseTurn(server.url, { prompt: 'Just once.' }, { headers: await bearer('carol') });
    expect(oneShot.status).toBe(200);
    expect(textOf(oneShot.events)).toBe('Just once.');
  });

  test("WebSocket: the upgrade naming another user's session is refused with 403; a turn naming it gets a forbidden event and no turn", async () => {
    const server = await agent();
    const x = sessionId('wsalice');
    const header = { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': x };
    // Alice over the subprotocol pair (as a browser sends it): the sentinel is the chosen protocol.
    const opened = await upgrade(server.wsUrl, header, await subprotocols('alice'));
    expect(opened).toMatchObject({ status: 101, protocol: BEARER_SUBPROTOCOL });
    const a = await WsCaller.connect(server.wsUrl, header, await subprotocols('alice'));
    try {
      a.send({ type: 'prompt', prompt: 'My name is Alice.' });
      await a.until((e) => e.some((x) => x.type === 'done'));
      expect(a.events[0]).toMatchObject({ type: 'start', session_id: x });
    } finally {
      a.close();
    }
    // The session in the query string (as a browser sends it to AgentCore) and the token in the
    // header beside the sentinel alone (should AgentCore forward it so): the same session.
    const query = `${server.wsUrl}?X-Amzn-Bedrock-AgentCore-Runtime-Session-Id=${x}`;
    expect(await upgrade(query, await bearer('alice'), [BEARER_SUBPROTOCOL])).toMatchObject({
      status: 101,
      protocol: BEARER_SUBPROTOCOL,
    });
    expect((await upgrade(query, await bearer('bob'))).status).toBe(403);
    expect((await upgrade(`${server.wsUrl}?X-Amzn-Bedrock-AgentCore-Runtime-Session-Id=short`, {})).status).toBe(400);
    // Bob: by header token or subprotocol, and an anonymous caller: refused at the door.
    expect(await upgrade(server.wsUrl, { ...header, ...(await bearer('bob')) })).toMatchObject({
      status: 403,
      body: expect.stringMatching(/belongs to another caller/),
    });
    expect((await upgrade(server.wsUrl, header, await subprotocols('bob'))).status).toBe(403);
    expect((await upgrade(server.wsUrl, header)).status).toBe(403);
    // Bob on his own connection, naming Alice's session in a turn: an error event, no turn.
    const b = await WsCaller.connect(server.wsUrl, await bearer('bob'));
    try {
      b.send({ type: 'prompt', prompt: 'What did I say before?', session_id: x });
      await b.until((e) => e.some((x) => x.type === 'error'));
      b.send({ type: 'prompt', prompt: 'Mine now.' });
      await b.until((e) => e.some((x) => x.type === 'done'));
      expect(b.events[0]).toEqual({ type: 'error', ...forbidden });
      expect(b.events[1]).toMatchObject({ type: 'start' });
      expect(b.events[1]).not.toMatchObject({ session_id: x });
      expect(textOf(b.events)).toBe('Mine now.');
    } finally {
      b.close();
    }
    // Alice over the Authorization header (as the local stand-in forwards it) still has hers.
    const again = await WsCaller.connect(server.wsUrl, { ...header, ...(await bearer('alice')) });
    try {
      again.send({ type: 'prompt', prompt: 'What did I say before?' });
      await again.until((e) => e.some((x) => x.type === 'done'));
      expect(textOf(again.events)).toBe('You said: My name is Alice.');
    } finally {
      again.close();
    }
  });

  test('across an agent restart (file store): the owner is remembered, keys hold a hash of the user, anonymous sessions stay where they were', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-owned-'));
    dirs.push(dir);
    const owned = sessionId('restart');
    const anonymous = sessionId('legacy');
    const first = await agent(dir);
    expect((await ask(first, 'My name is Alice.', owned, await bearer('alice'))).status).toBe(200);
    expect((await ask(first, 'My name is Anon.', anonymous)).status).toBe(200);
    await first.close();

    const files = await filesUnder(dir);
    const aliceKey = userKeyOf(TEST_ISSUER, 'alice');
    expect(files).toContain(`owners/${storageKeyOf(owned)}.json`);
    expect(files.some((f) => f.startsWith(`session/${aliceKey}-${storageKeyOf(owned)}/`))).toBe(true);
    // The anonymous session is where sessions were always stored (the id's hash alone), with no owner record.
    expect(files.some((f) => f.startsWith(`session/${storageKeyOf(anonymous)}/`))).toBe(true);
    expect(files).not.toContain(`owners/${storageKeyOf(anonymous)}.json`);
    for (const f of files) expect(f).not.toMatch(/alice|restart|legacy/);
    const record = JSON.parse(await readFile(join(dir, `owners/${storageKeyOf(owned)}.json`), 'utf8'));
    expect(record).toEqual({ version: 1, user: aliceKey });

    const second = await agent(dir);
    expect((await ask(second, 'What did I say before?', owned, await bearer('bob'))).status).toBe(403);
    expect((await ask(second, 'What did I say before?', owned)).status).toBe(403);
    expect(
      (await upgrade(second.wsUrl, { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': owned, ...(await bearer('bob')) }))
        .status,
    ).toBe(403);
    expect((await ask(second, 'What did I say before?', anonymous, await bearer('bob'))).status).toBe(403);
    expect((await ask(second, 'What did I say before?', owned, await bearer('alice'))).text).toBe(
      'You said: My name is Alice.',
    );
    expect((await ask(second, 'What did I say before?', anonymous)).text).toBe('You said: My name is Anon.');
  });
});

/** An HTTP proxy to S3 that, while `failing`, answers 500 to every read of an owner record (writes pass). */
async function ownerReadFaults(
  target: string,
): Promise<{ endpoint: string; failing: boolean; close(): Promise<void> }> {
  const state = { failing: false };
  const server: Server = createServer((req, res) => {
    if (state.failing && req.method === 'GET' && (req.url ?? '').includes('/owners/')) {
      res.writeHead(500, { 'content-type': 'application/xml' });
      return void res.end('<Error><Code>InternalError</Code><Message>injected</Message></Error>');
    }
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(state, {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe('sessions belong to users: S3, and a store that cannot be read', () => {
  test("owner records beside the sessions; a failed read refuses nobody, serves nothing of the owner's and never overwrites the owner", async () => {
    const s3 = await startS3StandIn('foundation');
    const proxy = await ownerReadFaults(s3.endpoint);
    try {
      const client = new S3Client({
        endpoint: proxy.endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        maxAttempts: 1,
      });
      const storage = () => new S3Storage('foundation', { prefix: 'sessions/', s3Client: client });
      const x = sessionId('s3owned');
      const first = await agent(storage());
      expect((await ask(first, 'My name is Alice.', x, await bearer('alice'))).status).toBe(200);
      await first.close();
      const record = async () => {
        const object = await client.send(
          new GetObjectCommand({ Bucket: 'foundation', Key: `sessions/owners/${storageKeyOf(x)}.json` }),
        );
        return JSON.parse(await object.Body!.transformToString());
      };
      expect(await record()).toEqual({ version: 1, user: userKeyOf(TEST_ISSUER, 'alice') });

      // The owner record cannot be read: Bob is served (nothing of Alice's: his own store key) ...
      proxy.failing = true;
      const second = await agent(storage());
      const bob = await ask(second, 'What did I say before?', x, await bearer('bob'));
      expect(bob.status).toBe(200);
      expect(bob.text).toBe('You have not said anything before.');
      await second.close();
      // ... and nothing was recorded for him: once the store answers, the session is Alice's still.
      proxy.failing = false;
      expect(await record()).toEqual({ version: 1, user: userKeyOf(TEST_ISSUER, 'alice') });
      const third = await agent(storage());
      expect((await ask(third, 'What did I say before?', x, await bearer('bob'))).status).toBe(403);
      expect((await ask(third, 'What did I say before?', x, await bearer('alice'))).text).toBe(
        'You said: My name is Alice.',
      );
    } finally {
      await proxy.close();
      await s3.close();
    }
  });
});
