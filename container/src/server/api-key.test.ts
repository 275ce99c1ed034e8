// KOKORO_API_KEY on a real server: the official `openai` client with the right key speaks, with a
// wrong one gets a 401 AuthenticationError it does not retry; POST /invocations and the WebSocket
// upgrade are refused 401 without the key; /ping always answers; the key is never logged.
import { expect, test } from '@jest/globals';
import OpenAI from 'openai';
import WebSocket from 'ws';
import { createLogger } from '@kokoro-speech/protocol/server';
import { TestClient, logCapture } from '../testing/test-support.ts';
import { suiteServer } from '../testing/fixture-server.ts';

const KEY = 'kokoro-test-key-5f1c9a';
const logs = logCapture();

const fixture = suiteServer(() => ({
  logger: createLogger('kokoro-server', 'info', logs.stream),
  config: { apiKey: KEY },
}));

const openai = (apiKey: string) => new OpenAI({ baseURL: `${fixture.server.url}/v1`, apiKey });

test('the openai client with the key speaks; with a wrong key it gets 401 invalid_api_key, asked once', async () => {
  const speech = await openai(KEY).audio.speech.create({
    model: 'tts-1',
    voice: 'af_heart',
    input: 'With the key.',
    response_format: 'wav',
  });
  expect(speech.status).toBe(200);
  expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(44);

  const before = logs.lines.filter((l) => l.msg === 'unauthorized').length;
  // The default client (maxRetries 2): a 401 is final, so the server sees it once.
  const refused = await openai('wrong-key')
    .audio.speech.create({ model: 'tts-1', voice: 'af_heart', input: 'No.' })
    .catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
  expect(refused).toMatchObject({ status: 401, code: 'invalid_api_key', type: 'invalid_request_error' });
  expect((refused as Error).message).toMatch(/KOKORO_API_KEY/);
  expect(logs.lines.filter((l) => l.msg === 'unauthorized').length).toBe(before + 1);

  await expect(openai('wrong-key').models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  expect((await openai(KEY).models.list()).data.map((m) => m.id)).toContain('kokoro');
});

test('protocol routes answer 401 in their own error shape; /ping needs no key', async () => {
  expect((await fetch(`${fixture.server.url}/ping`)).status).toBe(200);
  const res = await fetch(`${fixture.server.url}/invocations`, {
    method: 'POST',
    body: JSON.stringify({ text: 'Hi.' }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
  const ok = await fetch(`${fixture.server.url}/invocations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ text: 'Hi.' }),
  });
  expect(ok.status).toBe(200);
  await ok.arrayBuffer();
  const phonemes = await fetch(`${fixture.server.url}/v1/phonemize`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}x` },
    body: JSON.stringify({ text: 'Hi.' }),
  });
  expect(phonemes.status).toBe(401);
});

test('the WebSocket upgrade is refused 401 without the key and opens with it', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(fixture.server.wsUrl);
    ws.once('unexpected-response', (req, res) => {
      resolve(res.statusCode ?? 0);
      req.destroy(); // with this listener, ending the refused request is ours to do
    });
    ws.once('open', () => reject(new Error('opened without a key')));
    ws.once('error', () => {}); // the refusal also surfaces as an error after unexpected-response
  });
  expect(status).toBe(401);
  const ws = new WebSocket(fixture.server.wsUrl, { headers: { authorization: `Bearer ${KEY}` } });
  const client = new TestClient(ws);
  await client.next((m) => m.type === 'ready');
  await client.close();
});

test('the key is never logged', () => {
  expect(logs.lines.length).toBeGreaterThan(0);
  expect(JSON.stringify(logs.lines)).not.toContain(KEY);
  expect(JSON.stringify(logs.lines)).not.toContain('wrong-key');
});
