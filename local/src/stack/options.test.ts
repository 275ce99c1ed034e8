import { describe, expect, test } from '@jest/globals';
import { parseArgs } from 'node:util';
import { UsageError, parseLocalOptions } from './options.ts';
import { commandLineError } from './command-line.ts';

const ARN = 'arn:aws:bedrock-agentcore:us-west-2:123456789012:runtime/kokoro_agent-AbC123';

describe('npm start options', () => {
  test('defaults: port 3000 on loopback, q8, echo announced as the default, local pipeline', () => {
    const o = parseLocalOptions([], {});
    expect(o).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      offline: false,
      dtype: 'q8',
      llm: { provider: 'echo' },
      llmRequested: false,
    });
    expect(o.target).toBeUndefined();
    expect(o.modelDir).toBeUndefined();
    expect(o.tools).toEqual([]);
    expect(o.filler).toBeUndefined();
  });

  test('--allow-host: names served besides loopback, repeatable or comma-separated, or from the environment', () => {
    expect(parseLocalOptions([], {}).allowedHosts).toEqual([]);
    expect(
      parseLocalOptions(['--allow-host', 'kokoro.lan, box.local', '--allow-host', 'proxy:8443'], {}),
    ).toMatchObject({
      allowedHosts: ['kokoro.lan', 'box.local', 'proxy:8443'],
    });
    expect(parseLocalOptions([], { KOKORO_ALLOWED_HOSTS: 'kokoro.lan' }).allowedHosts).toEqual(['kokoro.lan']);
  });

  test('--auth: sign-in in front of the local agent, reached directly or on the same origin; tokens last an hour', () => {
    expect(parseLocalOptions([], {}).auth).toBeUndefined();
    expect(parseLocalOptions(['--auth'], {}).auth).toEqual({ mode: 'direct', tokenTtlS: 3600 });
    expect(parseLocalOptions(['--auth', '--auth-mode', 'same-origin'], { KOKORO_AUTH_TOKEN_TTL_S: '60' }).auth).toEqual(
      { mode: 'same-origin', tokenTtlS: 60 },
    );
    expect(parseLocalOptions(['--auth'], { KOKORO_AUTH_MODE: 'same-origin' }).auth?.mode).toBe('same-origin');
    expect(parseLocalOptions(['--auth', '--agent', 'http://127.0.0.1:8080'], {}).auth?.mode).toBe('direct');
    expect(() => parseLocalOptions(['--auth', '--auth-mode', 'cors'], {})).toThrow(
      new UsageError('--auth-mode must be direct or same-origin, not cors'),
    );
    expect(() => parseLocalOptions(['--auth'], { KOKORO_AUTH_MODE: 'x' })).toThrow(/KOKORO_AUTH_MODE must be/);
    expect(() => parseLocalOptions(['--auth-mode', 'direct'], {})).toThrow(
      new UsageError('--auth-mode goes with --auth'),
    );
    expect(() => parseLocalOptions(['--auth', '--target', ARN], {})).toThrow(/a deployed runtime has its own sign-in/);
    for (const bad of ['0', '1.5', 'soon', '86401'])
      expect(() => parseLocalOptions(['--auth'], { KOKORO_AUTH_TOKEN_TTL_S: bad })).toThrow(
        new UsageError(`KOKORO_AUTH_TOKEN_TTL_S must be whole seconds from 1 to 86400, not ${bad}`),
      );
  });

  test('built-in tools and the filler', () => {
    expect(parseLocalOptions(['--tools', 'time,calculator', '--filler', 'One moment.'], {})).toMatchObject({
      tools: ['time', 'calculator'],
      filler: { text: 'One moment.', afterMs: 1500 },
    });
    expect(
      parseLocalOptions([], { BUILTIN_TOOLS: 'calculator', TOOL_FILLER_TEXT: 'Hm.', TOOL_FILLER_AFTER_MS: '300' }),
    ).toMatchObject({ tools: ['calculator'], filler: { text: 'Hm.', afterMs: 300 } });
    expect(() => parseLocalOptions(['--tools', 'shell'], {})).toThrow('--tools takes time, calculator');
  });

  test('flags and environment', () => {
    const o = parseLocalOptions(
      ['--port', '0', '--offline', '--dtype', 'fp32', '--llm', 'bedrock', '--voice', 'bf_emma'],
      {
        SYSTEM_PROMPT: 'Be brief.',
        KOKORO_MODEL_DIR: '/models/kokoro',
        BEDROCK_MODEL_ID: 'm',
        AWS_REGION: 'eu-west-1',
      },
    );
    expect(o).toMatchObject({
      port: 0,
      offline: true,
      dtype: 'fp32',
      modelDir: '/models/kokoro',
      llmRequested: true,
      voice: 'bf_emma',
      systemPrompt: 'Be brief.',
    });
    expect(o.llm).toEqual({ provider: 'bedrock', modelId: 'm', region: 'eu-west-1' });
  });

  test('an OpenAI-compatible server is used when configured; echo settings come from the environment', () => {
    expect(parseLocalOptions([], { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', OPENAI_MODEL: 'llama' }).llm).toEqual({
      provider: 'openai',
      baseURL: 'http://127.0.0.1:8000/v1',
      model: 'llama',
    });
    expect(
      parseLocalOptions([], { LLM_PROVIDER: 'echo', ECHO_FIRST_TOKEN_MS: '0', ECHO_TOKENS_PER_SECOND: '500' }).llm,
    ).toEqual({
      provider: 'echo',
      firstTokenMs: 0,
      tokensPerSecond: 500,
    });
  });

  test('a deployed runtime from the flag or KOKORO_AGENT_RUNTIME_ARN', () => {
    expect(parseLocalOptions(['--target', ARN, '--qualifier', 'live'], {})).toMatchObject({
      target: ARN,
      qualifier: 'live',
    });
    expect(parseLocalOptions([], { KOKORO_AGENT_RUNTIME_ARN: ARN, KOKORO_AGENT_QUALIFIER: 'live' })).toMatchObject({
      target: ARN,
      qualifier: 'live',
    });
  });

  test('messages can name what the user gave: the flag or the variable', () => {
    expect(parseLocalOptions(['--model-dir', '/m', '--voice', 'bf_emma', '--llm', 'echo'], {}).from).toEqual({
      modelDir: '--model-dir',
      voice: '--voice',
      llm: '--llm',
    });
    expect(
      parseLocalOptions([], {
        KOKORO_MODEL_DIR: '/m',
        KOKORO_VOICE: 'bf_emma',
        LLM_PROVIDER: 'echo',
        KOKORO_AGENT_RUNTIME_ARN: ARN,
      }).from,
    ).toEqual({
      modelDir: 'KOKORO_MODEL_DIR',
      voice: 'KOKORO_VOICE',
      llm: 'LLM_PROVIDER',
      target: 'KOKORO_AGENT_RUNTIME_ARN',
    });
    // A voice of a language the deployment does not speak: refused at start (exit 2), naming why.
    expect(() => parseLocalOptions(['--voice', 'jf_alpha'], {})).toThrow(UsageError);
    expect(() => parseLocalOptions(['--voice', 'jf_alpha'], {})).toThrow(
      /^--voice: voice "jf_alpha"'s language is Japanese, which this deployment does not speak/,
    );
    expect(() => parseLocalOptions([], { KOKORO_VOICE: 'zf_xiaobei(2)+af_heart(1)' })).toThrow(
      /^KOKORO_VOICE: voice "zf_xiaobei\(2\)\+af_heart\(1\)"'s language is Mandarin Chinese/,
    );
    expect(() => parseLocalOptions([], { LLM_PROVIDER: 'gpt' })).toThrow(
      /^LLM_PROVIDER: must be one of echo, bedrock, openai, not "gpt"$/, // the agent's own message
    );
    expect(() => parseLocalOptions([], { LLM_PROVIDER: 'openai' })).toThrow(
      /^LLM_PROVIDER=openai needs OPENAI_BASE_URL/,
    );
    // The region as the agent reads it: AWS_REGION, then AWS_DEFAULT_REGION.
    expect(parseLocalOptions(['--llm', 'bedrock'], { AWS_DEFAULT_REGION: 'ap-south-1' }).llm).toEqual({
      provider: 'bedrock',
      region: 'ap-south-1',
    });
  });

  test('bad input gets a clear error naming the problem', () => {
    const bad: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [['--port', '70000'], {}, /--port must be 0-65535/],
      [['--dtype', 'q4'], {}, /--dtype must be q8 or fp32/],
      [['--export', 'fancy'], {}, /--export must be standard or timestamped, not fancy/],
      [['--llm', 'gpt'], {}, /--llm: must be one of echo, bedrock, openai, not "gpt"/],
      [['--llm', 'openai'], {}, /OPENAI_BASE_URL and OPENAI_MODEL/],
      [['--target', 'my-runtime'], {}, /AgentCore runtime ARN/],
      [['--agent', 'ftp://x'], {}, /--agent must be an http\(s\) URL/],
      [['--target', ARN, '--agent', 'http://127.0.0.1:8080'], {}, /not both/],
      [['--nope'], {}, /Unknown option '--nope'/],
    ];
    for (const [argv, env, message] of bad) {
      expect(() => parseLocalOptions(argv, env)).toThrow(UsageError);
      expect(() => parseLocalOptions(argv, env)).toThrow(message);
    }
  });

  test('--instances: 1 by default, 1 to 8 containers, anything else refused by name', () => {
    expect(parseLocalOptions([], {}).instances).toBe(1);
    expect(parseLocalOptions(['--instances', '3'], {}).instances).toBe(3);
    for (const bad of ['0', '9', '2.5', 'two'])
      expect(() => parseLocalOptions(['--instances', bad], {})).toThrow(
        new UsageError(`--instances must be a whole number from 1 to 8, not ${bad}`),
      );
  });

  test("the agent's variables are read by the runtime's parsers: its ranges, each bad one named", () => {
    const refused: [string[], NodeJS.ProcessEnv, string][] = [
      [
        [],
        { TOOL_FILLER_AFTER_MS: '60001' },
        'TOOL_FILLER_AFTER_MS: must be a whole number from 0 to 60000, not "60001"',
      ],
      [[], { ECHO_TOKENS_PER_SECOND: '0' }, 'ECHO_TOKENS_PER_SECOND: must be a number from 0.1 to 100000, not "0"'],
      [[], { ECHO_FIRST_TOKEN_MS: 'soon' }, 'ECHO_FIRST_TOKEN_MS: must be a number from 0 to 600000, not "soon"'],
      [[], { LLM_MAX_TOKENS: '0' }, 'LLM_MAX_TOKENS: must be a whole number from 1 to 200000, not "0"'],
      [
        ['--llm', 'echo'],
        { OPENAI_BASE_URL: 'localhost:11434/v1' },
        'OPENAI_BASE_URL: must be an http(s):// URL, not "localhost:11434/v1"',
      ],
      [[], { BUILTIN_TOOLS: 'time,shell' }, 'BUILTIN_TOOLS.1: must list time, calculator'],
      // A flag that sets one of them is named in its place.
      [['--filler', 'x'.repeat(201)], {}, '--filler: must be at most 200 characters'],
      [['--voice', 'v'.repeat(201)], {}, '--voice: must be at most 200 characters'],
    ];
    for (const [argv, env, message] of refused) {
      expect(() => parseLocalOptions(argv, env)).toThrow(UsageError);
      expect(() => parseLocalOptions(argv, env)).toThrow(message);
    }
    // Every problem in one message.
    expect(() => parseLocalOptions([], { TOOL_FILLER_AFTER_MS: '-1', ECHO_TOKENS_PER_SECOND: '0' })).toThrow(
      /ECHO_TOKENS_PER_SECOND: .*; TOOL_FILLER_AFTER_MS: /,
    );
    // What the agent gets from them, as the agent itself reads it.
    expect(
      parseLocalOptions([], { LLM_MAX_TOKENS: '300', TOOL_FILLER_TEXT: '  Hm.  ', TOOL_FILLER_AFTER_MS: '' }),
    ).toMatchObject({
      llm: { provider: 'echo' },
      filler: { text: 'Hm.', afterMs: 1500 },
    });
    expect(
      parseLocalOptions(['--llm', 'openai'], {
        OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
        OPENAI_MODEL: 'm',
        LLM_MAX_TOKENS: '300',
      }).llm,
    ).toEqual({ provider: 'openai', baseURL: 'http://127.0.0.1:8000/v1', model: 'm', maxTokens: 300 });
    expect(parseLocalOptions([], { SYSTEM_PROMPT: '' }).systemPrompt).toBeUndefined();
  });

  test('tools by either name; an unknown one is refused naming the valid ones', () => {
    expect(parseLocalOptions(['--tools', 'current_time, calculate'], {}).tools).toEqual(['current_time', 'calculate']);
    expect(parseLocalOptions([], { BUILTIN_TOOLS: 'calculator,current_time' }).tools).toEqual([
      'calculator',
      'current_time',
    ]);
    expect(() => parseLocalOptions(['--tools', 'time,clock'], {})).toThrow(
      new UsageError(
        '--tools takes time, calculator (or by the names the model calls them, current_time, calculate), comma-separated, not clock',
      ),
    );
  });

  test('command-line mistakes are usage errors whose quotes are balanced', () => {
    const thrown = (args: string[], allowPositionals: boolean): unknown => {
      try {
        parseArgs({ args, allowPositionals, options: { out: { type: 'string' } } });
      } catch (error) {
        return error;
      }
      throw new Error('parsed');
    };
    const balanced = (text: string) =>
      (text.match(/'/g) ?? []).length % 2 === 0 && (text.match(/"/g) ?? []).length % 2 === 0;
    // Node's hint when positionals are allowed leaves a quote open; said our way, closed.
    const say = commandLineError(thrown(['--nope'], true), 'npm run say --');
    expect(say).toBeInstanceOf(UsageError);
    expect(say.message).toBe(
      `Unknown option '--nope' (an argument that starts with '-' goes last, after '--': npm run say -- -- "--nope")`,
    );
    expect(balanced(say.message)).toBe(true);
    for (const [args, positionals] of [
      [['--nope'], false],
      [['--out'], false],
      [['extra'], false],
      [['-x'], true],
    ] as const) {
      const error = commandLineError(thrown([...args], positionals));
      expect(error).toBeInstanceOf(UsageError);
      expect(balanced(error.message)).toBe(true);
    }
    expect(commandLineError(thrown(['--nope'], false)).message).toBe("Unknown option '--nope'");
    expect(() => parseLocalOptions(['--nope'], {})).toThrow(new UsageError("Unknown option '--nope'"));
  });
});
