import { describe, expect, test } from '@jest/globals';
import { ConfigError, DEFAULT_SYSTEM_PROMPT, loadConfig } from './config.ts';
import { DEFAULT_BEDROCK_MODEL_ID } from './llm/index.ts';

describe('loadConfig', () => {
  test('defaults: port 8080 on all interfaces, Bedrock, pcm_s16le at 24 kHz, af_heart', () => {
    const config = loadConfig({ KOKORO_URL: 'ws://kokoro:8080' });
    expect(config).toEqual({
      host: '0.0.0.0',
      port: 8080,
      llm: { provider: 'bedrock', modelId: DEFAULT_BEDROCK_MODEL_ID },
      tts: { kind: 'websocket', url: 'ws://kokoro:8080' },
      defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
      limits: { maxConcurrentTurns: 16, maxRequestBytes: 65536, maxTurnMs: 300000 },
      systemPrompt: DEFAULT_SYSTEM_PROMPT,
      logLevel: 'info',
      otel: {},
      // Speech in: Amazon Transcribe unless STT_PROVIDER says otherwise (the deployed default).
      stt: { provider: 'transcribe' },
    });
  });

  test('SageMaker with every option, the OpenAI provider and voice settings', () => {
    const config = loadConfig({
      PORT: '9000',
      SAGEMAKER_ENDPOINT_NAME: 'kokoro',
      AWS_REGION: 'eu-west-1',
      SAGEMAKER_RUNTIME_URL: 'http://127.0.0.1:4000',
      TTS_TRANSPORT: 'response-stream',
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_MODEL: 'llama3.2',
      OPENAI_API_KEY: 'k',
      LLM_MAX_TOKENS: '300',
      KOKORO_VOICE: 'bf_emma',
      KOKORO_SPEED: '1.2',
      AUDIO_FORMAT: 'mulaw',
      AUDIO_SAMPLE_RATE: '8000',
      MAX_CONCURRENT_TURNS: '4',
      MAX_TURN_SECONDS: '2.5',
    });
    expect(config).toMatchObject({
      port: 9000,
      tts: {
        kind: 'sagemaker-response-stream',
        endpointName: 'kokoro',
        region: 'eu-west-1',
        endpoint: 'http://127.0.0.1:4000',
      },
      llm: { provider: 'openai', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: 'k', maxTokens: 300 },
      defaults: { voice: 'bf_emma', speed: 1.2, format: 'mulaw', sample_rate: 8000 },
      limits: { maxConcurrentTurns: 4, maxTurnMs: 2500 },
    });
    expect(loadConfig({ SAGEMAKER_ENDPOINT_NAME: 'k', AWS_REGION: 'us-east-1' }).tts.kind).toBe('sagemaker-bidi');
    expect(loadConfig({ KOKORO_URL: 'ws://k', LLM_PROVIDER: 'echo', ECHO_FIRST_TOKEN_MS: '0' }).llm).toEqual({
      provider: 'echo',
      firstTokenMs: 0,
    });
  });

  test.each([
    [{}, /no TTS endpoint: set KOKORO_URL=ws:\/\/host:port .* or SAGEMAKER_ENDPOINT_NAME and AWS_REGION/],
    [{ KOKORO_URL: 'http://kokoro' }, /KOKORO_URL: must be a ws:\/\/ or wss:\/\/ URL/],
    [{ KOKORO_URL: 'ws://k', SAGEMAKER_ENDPOINT_NAME: 'e' }, /both set/],
    [{ SAGEMAKER_ENDPOINT_NAME: 'e' }, /SAGEMAKER_ENDPOINT_NAME needs AWS_REGION/],
    [
      { TTS_TRANSPORT: 'websocket', SAGEMAKER_ENDPOINT_NAME: 'e', AWS_REGION: 'r' },
      /TTS_TRANSPORT=websocket needs KOKORO_URL/,
    ],
    [
      { KOKORO_URL: 'ws://k', LLM_PROVIDER: 'openai' },
      /needs OPENAI_BASE_URL .*; LLM_PROVIDER=openai needs OPENAI_MODEL/,
    ],
    [{ KOKORO_URL: 'ws://k', LLM_PROVIDER: 'gpt' }, /LLM_PROVIDER: /],
    [{ KOKORO_URL: 'ws://k', PORT: 'eighty' }, /PORT: /],
    [{ KOKORO_URL: 'ws://k', KOKORO_SPEED: '3' }, /KOKORO_SPEED: /],
    [{ KOKORO_URL: 'ws://k', AUDIO_SAMPLE_RATE: '44100' }, /AUDIO_SAMPLE_RATE: must be one of 24000, 16000, 8000/],
    [{ KOKORO_URL: 'ws://k', TTS_RETRY_BUDGET_MS: '-5' }, /TTS_RETRY_BUDGET_MS: /],
  ])('rejects %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('TTS_RETRY_BUDGET_MS reaches every transport as its retry budget (0 included); unset leaves the default', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k', TTS_RETRY_BUDGET_MS: '0' }).tts).toMatchObject({
      retry: { budgetMs: 0 },
    });
    const bidi = loadConfig({ SAGEMAKER_ENDPOINT_NAME: 'e', AWS_REGION: 'r', TTS_RETRY_BUDGET_MS: '3500' }).tts;
    expect(bidi).toMatchObject({ kind: 'sagemaker-bidi', retry: { budgetMs: 3500 } });
    expect(loadConfig({ KOKORO_URL: 'ws://k' }).tts).not.toHaveProperty('retry');
  });
});

describe('loadConfig: tools and sessions', () => {
  test('none set: no tool or session settings (the server defaults apply)', () => {
    const config = loadConfig({ KOKORO_URL: 'ws://k' });
    expect(config.tools).toBeUndefined();
    expect(config.sessions).toBeUndefined();
  });

  test('every tool and session variable', () => {
    const config = loadConfig({
      KOKORO_URL: 'ws://k',
      AWS_REGION: 'eu-west-1',
      BUILTIN_TOOLS: 'time, calculator',
      TOOL_TIMEOUT_SECONDS: '2.5',
      TOOL_MAX_RESULT_CHARS: '4000',
      TOOL_FILLER_TEXT: 'One moment.',
      TOOL_FILLER_AFTER_MS: '800',
      SESSION_IDLE_SECONDS: '600',
      MAX_SESSIONS: '32',
      SESSION_WINDOW_MESSAGES: '20',
      SESSION_STORE: 's3://foundation-bucket/sessions',
    });
    expect(config.tools).toEqual({
      builtin: ['time', 'calculator'],
      limits: { timeoutMs: 2500, maxResultChars: 4000 },
      filler: { text: 'One moment.', afterMs: 800 },
    });
    expect(config.sessions).toEqual({
      idleMs: 600_000,
      maxSessions: 32,
      windowMessages: 20,
      store: { kind: 's3', bucket: 'foundation-bucket', prefix: 'sessions/', region: 'eu-west-1' },
    });
    expect(loadConfig({ KOKORO_URL: 'ws://k', TOOL_FILLER_TEXT: 'Hm.' }).tools).toEqual({
      filler: { text: 'Hm.', afterMs: 1500 },
    });
    expect(loadConfig({ KOKORO_URL: 'ws://k', SESSION_STORE: 'file:///var/lib/kokoro' }).sessions).toEqual({
      store: { kind: 'file', dir: '/var/lib/kokoro' },
    });
    expect(loadConfig({ KOKORO_URL: 'ws://k', BUILTIN_TOOLS: 'none' }).tools).toBeUndefined();
  });

  test.each([
    [{ BUILTIN_TOOLS: 'time,shell' }, /BUILTIN_TOOLS\.1: must list time, calculator/],
    [{ TOOL_TIMEOUT_SECONDS: '0' }, /TOOL_TIMEOUT_SECONDS: /],
    [{ MAX_SESSIONS: '0' }, /MAX_SESSIONS: /],
    [{ SESSION_STORE: 'redis://x' }, /SESSION_STORE: session store must be file:\/\/\/dir or s3:\/\/bucket\/prefix/],
    [
      { SESSION_STORE: 's3://Bad_Bucket/x' },
      /SESSION_STORE: not an S3 bucket name: bad_bucket|SESSION_STORE: not an S3 bucket name/,
    ],
    [{ SESSION_STORE: 'file://host/dir' }, /SESSION_STORE: a file: session store takes an absolute path/],
  ])('rejects %j with a clear message', (env, message) => {
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', ...env })).toThrow(message);
  });
});

describe('loadConfig: what each variable takes', () => {
  test('a bad variable is named with what it takes and what it got; every one in one error', () => {
    let error: unknown;
    try {
      loadConfig({
        KOKORO_URL: 'ws://k',
        PORT: 'eighty',
        TOOL_FILLER_AFTER_MS: '60001',
        KOKORO_VOICE: 'v'.repeat(201),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'PORT: must be a whole number from 0 to 65535, not "eighty"',
      `KOKORO_VOICE: must be at most 200 characters, not "${'v'.repeat(80)}..."`,
      'TOOL_FILLER_AFTER_MS: must be a whole number from 0 to 60000, not "60001"',
    ]);
  });

  test('VOICE_* settings reach the voice sessions; VOICE_PREEMPTIVE is on or off', () => {
    const env = { KOKORO_URL: 'ws://k', VOICE_END_OF_TURN_MS: '300' };
    expect(loadConfig({ ...env, VOICE_PREEMPTIVE: 'on' }).voice).toEqual({ endOfTurnMs: 300, preemptive: true });
    expect(loadConfig({ ...env, VOICE_PREEMPTIVE: 'off' }).voice).toEqual({ endOfTurnMs: 300, preemptive: false });
    expect(loadConfig(env).voice).toEqual({ endOfTurnMs: 300 });
    expect(() => loadConfig({ ...env, VOICE_PREEMPTIVE: 'yes' })).toThrow('VOICE_PREEMPTIVE: must be one of on, off');
  });

  test('KOKORO_VOICE takes a blend; a malformed one is refused at start, with its position', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k', KOKORO_VOICE: 'af_bella(2)+af_sky' }).defaults.voice).toBe(
      'af_bella(2)+af_sky',
    );
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', KOKORO_VOICE: 'af_bella(2)+' })).toThrow(
      'KOKORO_VOICE: voice blend "af_bella(2)+": a voice id is missing at position 13',
    );
  });

  test('KOKORO_VOICE of a language not spoken here (ja, zh; a blend starting with one) is refused at start, naming why', () => {
    for (const voice of ['jf_alpha', 'zm_yunxi', 'zf_xiaobei(1)+af_heart(1)'])
      expect(() => loadConfig({ KOKORO_URL: 'ws://k', KOKORO_VOICE: voice })).toThrow(
        new RegExp(
          `KOKORO_VOICE: voice "${voice.replace(/[()+]/g, '\\$&')}"'s language is (Japanese|Mandarin Chinese), which this deployment does not speak: .*Spoken: en \\(English\\)`,
        ),
      );
    // Only the first voice of a blend names its language.
    expect(loadConfig({ KOKORO_URL: 'ws://k', KOKORO_VOICE: 'af_heart(1)+jf_alpha(1)' }).defaults.voice).toBe(
      'af_heart(1)+jf_alpha(1)',
    );
  });

  test('built-in tools by either name: the short ones or the names the model calls them', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k', BUILTIN_TOOLS: 'current_time,calculate' }).tools).toEqual({
      builtin: ['current_time', 'calculate'],
    });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', BUILTIN_TOOLS: 'calculator,clock' })).toThrow(
      'BUILTIN_TOOLS.1: must list time, calculator (or by the names the model calls them, current_time, calculate), comma-separated, not "clock"',
    );
  });

  test('blank is unset, except SYSTEM_PROMPT, where empty turns the prompt off', () => {
    const config = loadConfig({ KOKORO_URL: 'ws://k', PORT: '', KOKORO_VOICE: '', SYSTEM_PROMPT: '' });
    expect(config).toMatchObject({ port: 8080, defaults: { voice: 'af_heart' }, systemPrompt: '' });
  });
});
