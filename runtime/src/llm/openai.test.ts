import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import net from 'node:net';
import { Agent, tool } from '@strands-agents/sdk';
import { OpenAIProvider } from './openai.ts';
import { LlmError } from './errors.ts';
import { runProviderSuite } from '../testing/llm-provider-suite.ts';
import { createAgent } from '../conversation/agents.ts';
import { agentAnswer, resultText } from '../conversation/answer.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';

const fakes: FakeLlmServer[] = [];
afterAll(async () => void (await Promise.all(fakes.map((f) => f.close()))));

async function setup() {
  const fake = await startFakeOpenAI();
  fakes.push(fake);
  const provider = new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'test-model' });
  return { fake, provider };
}

runProviderSuite('openai', async () => {
  const { fake, provider } = await setup();
  return { provider, upstreamGone: () => fake.clientGone() };
});

describe('OpenAIProvider', () => {
  let fake: FakeLlmServer;
  let provider: OpenAIProvider;
  beforeAll(async () => ({ fake, provider } = await setup()));

  test('sends the model, the system prompt and the user prompt, streaming, with the API key', async () => {
    const keyed = new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm1', apiKey: 'sk-test', maxTokens: 99 });
    let text = '';
    for await (const delta of keyed.stream('Hi.', { systemPrompt: 'Be brief.' })) text += delta;
    expect(text).toBe('Hi.');
    const request = fake.requests.at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({
      model: 'm1',
      stream: true,
      max_tokens: 99,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi.' },
      ],
    });
  });

  test('an HTTP error becomes an LlmError naming the status', async () => {
    fake.failNext(401, { error: { message: 'bad key', type: 'invalid_request_error' } });
    const run = (async () => {
      for await (const _ of provider.stream('x')) throw new Error('no delta expected');
    })();
    await expect(run).rejects.toBeInstanceOf(LlmError);
    fake.failNext(404, { error: { message: 'model nope not found' } });
    await expect(
      (async () => {
        for await (const _ of provider.stream('x'));
      })(),
    ).rejects.toMatchObject({
      code: 'llm_error',
      message: expect.stringMatching(/openai LLM failed \(HTTP 404\).*not found/),
    });
  });

  test('a server that is not there is a clear error', async () => {
    const gone = new OpenAIProvider({ baseURL: 'http://127.0.0.1:1/v1', model: 'm' });
    await expect(
      (async () => {
        for await (const _ of gone.stream('x'));
      })(),
    ).rejects.toMatchObject({
      name: 'LlmError',
      message: expect.stringMatching(/^openai LLM failed: Connection error/),
    });
    // It names what it tried, and why that failed: port 1 is one fetch refuses to use...
    await expect(
      (async () => {
        for await (const _ of gone.stream('x'));
      })(),
    ).rejects.toMatchObject({
      message: expect.stringContaining('(POST http://127.0.0.1:1/v1/chat/completions: bad port)'),
    });
    // ...and a closed port refuses the connection.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new OpenAIProvider({ baseURL: `http://127.0.0.1:${port}/v1/`, model: 'm' });
    await expect(
      (async () => {
        for await (const _ of refused.stream('x'));
      })(),
    ).rejects.toMatchObject({
      message: expect.stringContaining(`(POST http://127.0.0.1:${port}/v1/chat/completions: ECONNREFUSED)`),
    });
  });

  test("a conversation's turn on an unreachable server names the URL too", async () => {
    const gone = new OpenAIProvider({ baseURL: 'http://127.0.0.1:1/v1/', model: 'm' });
    const agent = await createAgent({ model: gone.model });
    await expect(
      (async () => {
        for await (const _ of agentAnswer(agent, 'x', new AbortController().signal, gone));
      })(),
    ).rejects.toMatchObject({
      name: 'LlmError',
      message: 'openai LLM failed: Connection error. (POST http://127.0.0.1:1/v1/chat/completions: bad port)',
    });
  });

  test('stream() has the speech timeouts and the wire checks too', async () => {
    const stalled = await startFakeOpenAI({ fault: { kind: 'stall', afterChunks: 2 } });
    fakes.push(stalled);
    const slow = new OpenAIProvider({ baseURL: `${stalled.url}/v1`, model: 'm' });
    const deltas: string[] = [];
    const run = (async () => {
      for await (const delta of slow.stream('Hello there, friend.', { timeouts: { firstTokenMs: 2000, idleMs: 300 } }))
        deltas.push(delta);
    })();
    await expect(run).rejects.toMatchObject({
      code: 'llm_timeout',
      message: 'openai LLM stopped writing for 0.3 s in the middle of its answer (LLM_IDLE_SECONDS)',
    });
    expect(deltas.join('')).toBe('Hello th');
    await stalled.clientGone();
    fake.breakNext({ kind: 'truncate', afterChunks: 1 });
    await expect(
      (async () => {
        for await (const _ of provider.stream('Cut me short.'));
      })(),
    ).rejects.toMatchObject({
      code: 'llm_error',
      message: expect.stringMatching(
        /^openai LLM failed: the answer stream ended after \d+ bytes with neither a finish_reason nor \[DONE\]/,
      ),
    });
  });

  test.each([
    ['no chunk', 'none'],
    ['only the last chunk', 'last'],
  ] as const)(
    'a stream with its role in %s (as some proxies send it) is still an answer, tools included',
    async (_, role) => {
      const roleless = await startFakeOpenAI({
        role,
        reply: (request) =>
          request.toolResults.length > 0
            ? { text: ` It is ${request.toolResults[0]!.text}.` }
            : /time/.test(request.lastUserText)
              ? { text: 'Let me look.', toolCalls: [{ id: 'call_1', name: 'clock', input: {} }] }
              : { text: request.lastUserText },
      });
      fakes.push(roleless);
      const model = new OpenAIProvider({ baseURL: `${roleless.url}/v1`, model: 'm' });
      let text = '';
      for await (const delta of model.stream('Hello there.')) text += delta;
      expect(text).toBe('Hello there.');
      const clock = tool({ name: 'clock', description: 'The time.', callback: () => 'noon' });
      const agent = new Agent({ model: model.model, tools: [clock], printer: false });
      const result = await agent.invoke('What time is it?');
      expect(resultText(result.lastMessage)).toBe(' It is noon.');
      expect(agent.messages.map((m) => [m.role, m.content.map((b) => b.type).join('+')])).toEqual([
        ['user', 'textBlock'],
        ['assistant', 'textBlock+toolUseBlock'],
        ['user', 'toolResultBlock'],
        ['assistant', 'textBlock'],
      ]);
    },
  );

  test('rejects a base URL that is not a URL', () => {
    expect(() => new OpenAIProvider({ baseURL: 'localhost:8000', model: 'm' })).toThrow(
      /not an http\(s\) URL: localhost:8000/,
    );
  });
});
