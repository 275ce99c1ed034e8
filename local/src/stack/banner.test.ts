// The npm start banner from the stack's set-up, and the tools part of that set-up: the names the
// agent's own tools have, and echo directives that the echo model really parses and calls.
import { describe, expect, test } from '@jest/globals';
import { builtinTools, BUILTIN_TOOL_NAMES, echoReply } from '@kokoro-speech/runtime';
import type { PageInfo } from '../web-server/web-server.ts';
import { bannerLines } from './banner.ts';
import { echoDirective, toolInfo } from './tool-info.ts';

const local: PageInfo = {
  llm: { name: 'echo', description: 'echo (repeats your prompt)' },
  model: { kind: 'stand-in', description: 'stand-in model: a tone (--offline), 2 instances' },
  target: { kind: 'local', description: 'local, through the SageMaker bidirectional stream' },
};

describe('bannerLines', () => {
  test('the set-up, the echo note and, last, the URL', () => {
    expect(bannerLines(local, 'http://127.0.0.1:3000/')).toEqual([
      '',
      '  LLM     echo (repeats your prompt)',
      '  Speech  stand-in model: a tone (--offline), 2 instances',
      '  Agent   local, through the SageMaker bidirectional stream',
      '',
      '  Note: the echo model is in use, so answers repeat your prompt. For a real LLM: --llm bedrock',
      '  (AWS credentials) or --llm openai (OPENAI_BASE_URL, OPENAI_MODEL).',
      '',
      '  Open http://127.0.0.1:3000/ in your browser. Ctrl-C stops.',
    ]);
  });

  test('with --auth, the sign-in line', () => {
    const lines = bannerLines({ ...local, auth: { description: 'local provider http://127.0.0.1:3001' } }, 'u');
    expect(lines).toContain('  Sign-in local provider http://127.0.0.1:3001');
  });

  test('the tools that are on, and with the echo model the directive of each', () => {
    const tools = toolInfo(builtinTools(BUILTIN_TOOL_NAMES), { echo: true });
    const lines = bannerLines({ ...local, tools }, 'http://127.0.0.1:3000/');
    const names = builtinTools(BUILTIN_TOOL_NAMES).map((t) => t.name);
    expect(lines).toContain(`  Tools   ${names.join(', ')}`);
    for (const t of tools) expect(lines).toContain(`    ${t.echo}`);
    expect(lines.at(-1)).toMatch(/^ {2}Open http/);
    // No tools: the banner says so, and where to find them.
    expect(bannerLines({ ...local, tools: [] }, 'http://x/')).toContain(
      '  Tools   none (npm start -- --help lists the built-in ones)',
    );
  });

  test('a remote agent: its tools are not known here, and no echo note', () => {
    const remote: PageInfo = {
      llm: { name: 'remote', description: 'as configured on the runtime' },
      model: { kind: 'remote', description: 'the deployed SageMaker endpoint' },
      target: { kind: 'agentcore', description: 'AgentCore rt (eu-west-1)' },
      region: { name: 'eu-west-1', source: 'the runtime ARN' },
    };
    const lines = bannerLines(remote, 'http://127.0.0.1:3000/');
    expect(lines).toContain('  Region  eu-west-1 (the runtime ARN)');
    expect(lines.join('\n')).not.toMatch(/Tools|echo/);
  });
});

describe('toolInfo', () => {
  test('directives from the input schema: required properties, examples where the schema gives them', () => {
    const tool = (inputSchema: unknown) => ({ name: 'x', description: 'd', toolSpec: { inputSchema } });
    expect(echoDirective(tool(undefined))).toBe('<tool name="x">{}</tool>');
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'number' },
        c: { type: 'string', examples: ['Europe/Paris'] },
        d: { type: 'string' },
        e: { type: 'boolean', default: false },
      },
      required: ['a', 'b', 'e'],
    };
    expect(echoDirective(tool(schema))).toBe('<tool name="x">{"a":"…","b":1,"c":"Europe/Paris","e":false}</tool>');
    expect(toolInfo([tool(schema)], { echo: false })).toEqual([{ name: 'x', description: 'd' }]);
  });

  test("each built-in's directive makes the echo model call that tool", () => {
    for (const info of toolInfo(builtinTools(BUILTIN_TOOL_NAMES), { echo: true })) {
      const prompt = { role: 'user', content: [{ type: 'textBlock', text: `Here: ${info.echo} Done.` }] };
      const reply = echoReply([prompt] as unknown as Parameters<typeof echoReply>[0]);
      expect(reply).toMatchObject({ text: 'Here: ', toolUse: { name: info.name } });
      expect(reply.toolUse!.input).not.toHaveProperty('raw'); // its input is JSON
    }
  });
});
