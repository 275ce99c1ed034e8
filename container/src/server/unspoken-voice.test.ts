// A voice of a language this deployment does not speak (Japanese, Mandarin; a blend led by one) is
// the caller's mistake on every route: 400 unsupported_language, never a 5xx the official `openai`
// client would retry; each request, refusals included, gets one log line with the status it was sent.
import { expect, test } from '@jest/globals';
import OpenAI from 'openai';
import { createLogger } from '@kokoro-speech/protocol/server';
import { TestClient, logCapture } from '../testing/test-support.ts';
import { suiteServer } from '../testing/fixture-server.ts';
import type { ErrorMessage } from '@kokoro-speech/protocol';

const logs = logCapture();

const fixture = suiteServer(() => ({ logger: createLogger('kokoro-server', 'info', logs.stream) }));

const done = (route: string) => logs.lines.filter((l) => l.msg === 'request done' && l.route === route);

test.each(['jf_alpha', 'zm_yunxi', 'zf_xiaobei(2)+af_heart(1)'])(
  'the openai client (default retries) gets one 400 unsupported_language for %s',
  async (voice) => {
    const client = new OpenAI({ baseURL: `${fixture.server.url}/v1`, apiKey: 'unused' }); // maxRetries 2
    const before = done('POST /v1/audio/speech').length;
    const error = await client.audio.speech.create({ model: 'tts-1', voice, input: 'Hello.' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'unsupported_language', param: 'voice' });
    expect((error as Error).message).toMatch(/(Japanese|Mandarin).*does not speak/);
    const lines = done('POST /v1/audio/speech').slice(before);
    expect(lines).toHaveLength(1); // asked once: no retry
    expect(lines[0]).toMatchObject({ status: 400, code: 'unsupported_language' });
  },
);

test('POST /invocations: 400 unsupported_language, logged as 400', async () => {
  const before = done('POST /invocations').length;
  const res = await fetch(`${fixture.server.url}/invocations`, {
    method: 'POST',
    body: JSON.stringify({ text: 'こんにちは。', voice: 'jf_alpha' }),
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: { code: 'unsupported_language' } });
  expect(done('POST /invocations').slice(before)).toEqual([
    expect.objectContaining({ status: 400, code: 'unsupported_language' }),
  ]);
});

test('the WebSocket: the utterance fails with its id, the session goes on', async () => {
  const c = await TestClient.connect(fixture.server.wsUrl);
  c.send({ type: 'config', voice: 'zf_xiaobei+af_heart' });
  c.send({ type: 'text', text: '你好。', id: 'zh' });
  expect(await c.next<ErrorMessage>((m) => m.type === 'error')).toMatchObject({
    id: 'zh',
    code: 'unsupported_language',
  });
  c.send({ type: 'config', voice: 'af_heart' });
  c.send({ type: 'text', text: 'Hello.', id: 'en' });
  await c.next((m) => m.type === 'audio_end');
  await c.close();
});

test('an OpenAI request refused before its handler (405) gets a log line with the status sent', async () => {
  const res = await fetch(`${fixture.server.url}/v1/audio/speech`);
  expect(res.status).toBe(405);
  await logs.next((l) => l.msg === 'request done' && l.route === 'GET /v1/audio/speech');
  expect(logs.lines.find((l) => l.route === 'GET /v1/audio/speech')).toMatchObject({
    status: 405,
    code: 'method_not_allowed',
  });
});
