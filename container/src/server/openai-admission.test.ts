// Admission control on the OpenAI-compatible speech API: POST /v1/audio/speech is synthesis work
// like POST /invocations, so while an admitted session's first audio is still being made (the
// simulated model is slower than its deadline) it is refused before its body is read, with 503,
// Retry-After and the reason in OpenAI's error shape; the model and voice lists (no synthesis)
// still answer. The official openai client retries a 503 after Retry-After and gets its audio.
import { expect, test } from '@jest/globals';
import OpenAI from 'openai';
import type { AudioEndMessage } from '@kokoro-speech/protocol';
import { TestClient } from '../testing/test-support.ts';
import { lateAdmission, suiteServer } from '../testing/fixture-server.ts';

const fixture = suiteServer(() => lateAdmission);

/** An admitted session whose first answer is queued (its error to the nonsense comes after it). */
async function busySession(): Promise<TestClient> {
  const a = await TestClient.connect(fixture.server.wsUrl);
  a.send({ type: 'text', text: 'This first answer takes the model longer than its deadline.', id: 'a0' });
  a.send({ type: 'nonsense' });
  await a.next((m) => m.type === 'error');
  return a;
}

async function bytesOf(response: Response): Promise<number> {
  return Buffer.from(await response.arrayBuffer()).length;
}

test('refused with 503 + Retry-After in OpenAI error shape while an admitted session would run late', async () => {
  const client = new OpenAI({ baseURL: `${fixture.server.url}/v1`, apiKey: 'not-needed', maxRetries: 0 });
  const a = await busySession();

  const error = await client.audio.speech
    .create({ model: 'kokoro', voice: 'af_heart', input: 'Hello there.', response_format: 'pcm' })
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(OpenAI.InternalServerError);
  const e = error as InstanceType<typeof OpenAI.InternalServerError>;
  expect(e.status).toBe(503);
  expect(e.code).toBe('overloaded');
  expect(e.type).toBe('server_error');
  expect(e.message).toMatch(/one more request/);
  expect(Number(e.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

  // The lists are no synthesis work: they answer while speech is refused.
  expect((await fetch(`${fixture.server.url}/v1/models`)).status).toBe(200);
  expect((await fetch(`${fixture.server.url}/v1/audio/voices`)).status).toBe(200);

  // The admitted session is untouched and plays to the end; then a request fits.
  const end = await a.next<AudioEndMessage>((m) => m.type === 'audio_end');
  expect(end.id).toBe('a0');
  expect(a.messages.filter((m) => m.type === 'error')).toHaveLength(1); // only the nonsense
  await a.close();
  const admitted = await client.audio.speech.create({
    model: 'kokoro',
    voice: 'af_heart',
    input: 'Hello there.',
    response_format: 'pcm',
  });
  expect(admitted.status).toBe(200);
  expect(await bytesOf(admitted)).toBeGreaterThan(0);
}, 30_000);

test("the openai client's own retry waits Retry-After and then gets the audio", async () => {
  const statuses: number[] = [];
  const client = new OpenAI({
    baseURL: `${fixture.server.url}/v1`,
    apiKey: 'not-needed',
    maxRetries: 2,
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    },
  });
  const a = await busySession();
  const response = await client.audio.speech.create({
    model: 'kokoro',
    voice: 'af_heart',
    input: 'Hello there.',
    response_format: 'pcm',
  });
  expect(await bytesOf(response)).toBeGreaterThan(0);
  expect(statuses[0]).toBe(503);
  expect(statuses.at(-1)).toBe(200);
  await a.next((m) => m.type === 'audio_end');
  await a.close();
}, 30_000);
