// The echo model's tool directives against the tools the agent really has: a built-in tool by
// either of its names, and a directive naming a tool that is not enabled answered with the tools
// that are (through the real Strands agent loop and the real built-in tools).
import { describe, expect, test } from '@jest/globals';
import { Agent, type Tool } from '@strands-agents/sdk';
import { EchoProvider, echoReply } from './echo.ts';
import { textDeltaOf } from './one-shot.ts';
import { builtinTools } from '../tools/builtin.ts';

async function answer(prompt: string, tools: Tool[]): Promise<{ text: string; called: string[] }> {
  const model = new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 5000 }).model;
  const agent = new Agent({ model, tools, printer: false });
  let text = '';
  const called: string[] = [];
  for await (const event of agent.stream(prompt)) {
    text += textDeltaOf(event) ?? '';
    if (event.type === 'beforeToolCallEvent') called.push(event.toolUse.name);
  }
  return { text, called };
}

describe('echo tool directives', () => {
  test('a built-in tool by its configuration name or its own name', async () => {
    const tools = builtinTools(['time', 'calculator']);
    const short = await answer('<tool name="calculator">{"expression": "6 * 7"}</tool>It is {result}.', tools);
    expect(short).toEqual({ text: 'It is 42.', called: ['calculate'] });
    const own = await answer('<tool name="calculate">{"expression": "6 * 7"}</tool>It is {result}.', tools);
    expect(own).toEqual({ text: 'It is 42.', called: ['calculate'] });
    const clock = await answer('<tool name="time">{"time_zone": "UTC"}</tool>It is {result}', tools);
    expect(clock.called).toEqual(['current_time']);
    expect(clock.text).toMatch(/^It is .*\(UTC\)$/);
  });

  test('a tool that is not enabled: the answer says which ones are', async () => {
    const { text, called } = await answer(
      'Checking.<tool name="shell">{}</tool> It said: {result}',
      builtinTools(['calculator', 'time']),
    );
    expect(called).toEqual(['shell']);
    expect(text).toBe(
      "Checking. It said: Tool 'shell' not found in registry (there is no tool shell here: the enabled tools are calculate, current_time; BUILTIN_TOOLS turns on the built-in ones, time and calculator)",
    );
  });

  test('with no tools enabled, and no {result} in the prompt, the reason is still said', async () => {
    const { text } = await answer('<tool name="calculator">{"expression": "1 + 1"}</tool>Done.', []);
    expect(text).toBe(
      "Tool 'calculator' not found in registry (there is no tool calculator here: no tools are enabled; BUILTIN_TOOLS turns on the built-in ones, time and calculator). Done.",
    );
  });

  test('echoReply: a name is resolved only against the tools it is told of', () => {
    const user = (text: string) => ({ role: 'user', content: [{ type: 'textBlock', text }] });
    const messages = [user('<tool name="time">{}</tool>')] as never;
    expect(echoReply(messages).toolUse?.name).toBe('time');
    expect(echoReply(messages, ['current_time']).toolUse?.name).toBe('current_time');
    expect(echoReply(messages, ['time']).toolUse?.name).toBe('time');
    expect(echoReply(messages, []).toolUse?.name).toBe('time');
  });
});
