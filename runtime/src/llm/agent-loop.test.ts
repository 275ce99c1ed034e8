// Every provider drives the real Strands agent loop offline: memory across invocations of one
// agent, and a tool call in the middle of an answer (the echo model by its tool directive, the
// fake OpenAI-compatible and Bedrock servers by a reply script, streamed as those APIs stream it).
import { afterAll, describe, expect, test } from '@jest/globals';
import { Agent, tool } from '@strands-agents/sdk';
import { z } from 'zod';
import { EchoProvider, echoReply } from './echo.ts';
import { OpenAIProvider } from './openai.ts';
import { bedrockAtFake } from '../testing/fake-llm-provider.ts';
import type { LlmProvider } from './types.ts';
import { textDeltaOf } from './one-shot.ts';
import {
  startFakeBedrock,
  startFakeOpenAI,
  type FakeLlmServer,
  type FakeReply,
  type FakeRequest,
} from '../testing/fake-llm-servers.ts';

const fakes: FakeLlmServer[] = [];
afterAll(async () => void (await Promise.all(fakes.map((f) => f.close()))));

/** Tool results the scripted fakes were sent. */
const resultsSeen: FakeRequest['toolResults'][] = [];

/** The scripted model: asks for add(2, 3) first, then speaks its result. */
function addScript(request: FakeRequest): FakeReply {
  if (request.toolResults.length > 0) resultsSeen.push(request.toolResults);
  if (request.toolResults.length > 0) return { text: ` The sum is ${request.toolResults[0]!.text}.` };
  if (/add/.test(request.lastUserText))
    return { text: 'Let me add that up.', toolCalls: [{ id: 'call_1', name: 'add', input: { a: 2, b: 3 } }] };
  return { text: request.lastUserText };
}

const providers: [string, () => Promise<{ provider: LlmProvider; fake?: FakeLlmServer }>][] = [
  ['echo', async () => ({ provider: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 5000 }) })],
  [
    'openai (fake server)',
    async () => {
      const fake = await startFakeOpenAI({ chunkDelayMs: 1, reply: addScript });
      fakes.push(fake);
      return { fake, provider: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }) };
    },
  ],
  [
    'bedrock (fake server)',
    async () => {
      const fake = await startFakeBedrock({ chunkDelayMs: 1, reply: addScript });
      fakes.push(fake);
      const provider = bedrockAtFake(fake.url, { clientConfig: { maxAttempts: 1 } });
      return { fake, provider };
    },
  ],
];

const ADD_PROMPT: Record<string, string> = {
  echo: 'Let me add that up.<tool name="add">{"a": 2, "b": 3}</tool> The sum is {result}.',
};

describe.each(providers)('%s drives the Strands agent loop', (name, setup) => {
  test('a tool call mid-answer: text before it, the tool with its input, the answer after it', async () => {
    const { provider, fake } = await setup();
    const calls: unknown[] = [];
    const add = tool({
      name: 'add',
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      callback: (input) => {
        calls.push(input);
        return input.a + input.b;
      },
    });
    const agent = new Agent({ model: provider.model, tools: [add], printer: false });
    const order: string[] = [];
    let text = '';
    for await (const event of agent.stream(ADD_PROMPT[name] ?? 'Please add 2 and 3.')) {
      const delta = textDeltaOf(event);
      if (delta) {
        text += delta;
        if (order.at(-1) !== 'text') order.push('text');
      }
      if (event.type === 'beforeToolCallEvent') order.push('tool');
    }
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    expect(order).toEqual(['text', 'tool', 'text']);
    expect(text).toBe('Let me add that up. The sum is 5.');
    // The conversation holds the tool use and its result together, then the answer.
    expect(agent.messages.map((m) => [m.role, m.content.map((b) => b.type).join('+')])).toEqual([
      ['user', 'textBlock'],
      ['assistant', 'textBlock+toolUseBlock'],
      ['user', 'toolResultBlock'],
      ['assistant', 'textBlock'],
    ]);
    if (fake) {
      // The model was told about the tool, and got its result back.
      expect(JSON.stringify(fake.requests[0]!.body)).toContain('Adds two numbers.');
      expect(resultsSeen.at(-1)).toEqual([{ id: 'call_1', text: '5', error: false }]);
    }
  });

  test('one agent remembers: the second invocation sends the first exchange along', async () => {
    const { provider, fake } = await setup();
    const agent = new Agent({ model: provider.model, printer: false });
    await agent.invoke('My name is Ada.');
    const second = await agent.invoke(name === 'echo' ? 'What did I say before?' : 'And now?');
    expect(agent.messages).toHaveLength(4);
    if (name === 'echo')
      expect(
        String(
          second.lastMessage.content[0]!.type === 'textBlock' &&
            (second.lastMessage.content[0] as { text: string }).text,
        ),
      ).toBe('You said: My name is Ada.');
    if (fake) expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('My name is Ada.');
  });
});

describe('echo model replies', () => {
  const agentOf = () =>
    new Agent({ model: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 5000 }).model, printer: false });
  const reply = async (agent: Agent, prompt: string) => {
    const result = await agent.invoke(prompt);
    return result.lastMessage.content.map((b) => (b as { text?: string }).text ?? '').join('');
  };

  test('answers from the conversation it is given, and says when there is nothing to answer from', async () => {
    const agent = agentOf();
    expect(await reply(agent, 'What did you say before?')).toBe('I have not said anything yet.');
    expect(await reply(agent, 'What did I say before?')).toBe('You said: What did you say before?');
    expect(await reply(agent, 'what did you just say')).toBe('I said: You said: What did you say before?');
    expect(await reply(agentOf(), 'What did I say before?')).toBe('You have not said anything before.');
  });

  test('a tool directive with bad JSON still calls the tool (with the raw input); no directive echoes', () => {
    const user = (text: string) => ({ role: 'user', content: [{ type: 'textBlock', text }] });
    const r = echoReply([user('Go. <tool name="x">{oops</tool> Done.')] as never);
    expect(r).toMatchObject({ text: 'Go. ', toolUse: { name: 'x', input: { raw: '{oops' } } });
    expect(echoReply([user('Just this.')] as never)).toEqual({ text: 'Just this.' });
  });
});
