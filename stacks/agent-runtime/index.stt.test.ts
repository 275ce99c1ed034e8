// agent-runtime under Pulumi mocks: the agent's speech-to-text. STT_PROVIDER and the STT_OPENAI_*
// variables as the agent reads them; `transcribe` only where the foundation's role may call
// Transcribe; keys for another provider, a missing or plain-http base URL refused at preview. (Each
// run imports the program afresh: a query string makes it a new module.)
import { expect, test } from '@jest/globals';
import { endpointOutputs, foundationOutputs } from '../shared/outputs.ts';
import { account, fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

let runs = 0;
const program = () => new URL(`./index.ts?stt=${++runs}`, import.meta.url);

function options(config: Record<string, string>, foundationStt: unknown, preview = false) {
  return {
    project: 'kokoro-agent-runtime',
    preview,
    config: { 'kokoro-agent-runtime:inboundAuth': 'iam', ...config },
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, {
        region,
        agentRuntimeRoleArn: `arn:aws:iam::${account}:role/agentcore`,
        bedrockModelIds: ['us.anthropic.claude-haiku-4-5-20251001-v1:0'],
        sttProvider: foundationStt,
      }),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs),
    },
  };
}

/** Pulumi's marker of a secret value in resource inputs (the engine's wire format). */
const SECRET_SIG = '4dabf18193072939515e22adb298388d';

/** The STT_* variables the runtime gets, and whether its environment is held as a secret. */
const sttEnvironment = async (config: Record<string, string>, foundationStt: unknown) => {
  const run = await runProgram(program(), options(config, foundationStt));
  const held = run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs.environmentVariables;
  const secret = held[SECRET_SIG] !== undefined;
  const env: Record<string, string> = secret ? held.value : held;
  return { secret, ...Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('STT_'))) };
};

test('openai: the server, model and key reach the agent as STT_OPENAI_*', async () => {
  await expect(
    sttEnvironment(
      {
        'kokoro-agent-runtime:sttProvider': 'openai',
        'kokoro-agent-runtime:sttOpenaiBaseUrl': 'https://stt.example.com/v1',
        'kokoro-agent-runtime:sttOpenaiModel': 'whisper-large-v3-turbo',
        'kokoro-agent-runtime:sttOpenaiApiKey': 'sk-test-key',
      },
      'openai',
    ),
  ).resolves.toEqual({
    // The key is a Pulumi secret: the runtime's environment is kept encrypted in the stack's state.
    secret: true,
    STT_PROVIDER: 'openai',
    STT_OPENAI_BASE_URL: 'https://stt.example.com/v1',
    STT_OPENAI_MODEL: 'whisper-large-v3-turbo',
    STT_OPENAI_API_KEY: 'sk-test-key',
  });
});

test('none, or openai on a foundation that allows Transcribe: no Transcribe needed, nothing else set', async () => {
  await expect(sttEnvironment({ 'kokoro-agent-runtime:sttProvider': 'none' }, 'none')).resolves.toEqual({
    secret: false,
    STT_PROVIDER: 'none',
  });
  await expect(
    sttEnvironment(
      {
        'kokoro-agent-runtime:sttProvider': 'openai',
        'kokoro-agent-runtime:sttOpenaiBaseUrl': 'https://stt.example.com/v1',
      },
      'transcribe',
    ),
  ).resolves.toEqual({ secret: false, STT_PROVIDER: 'openai', STT_OPENAI_BASE_URL: 'https://stt.example.com/v1' });
});

test("transcribe (the default) where the foundation's role may not call Transcribe is refused, saying what to do", async () => {
  await expect(runProgram(program(), options({}, 'openai'))).rejects.toThrow(
    "sttProvider 'transcribe': the foundation's agent role may not call Amazon Transcribe (its sttProvider is 'openai')",
  );
  await expect(runProgram(program(), options({}, undefined))).rejects.toThrow(
    "exports no 'sttProvider': run `pulumi up` in stacks/foundation first",
  );
});

test.each([
  [
    { 'kokoro-agent-runtime:sttOpenaiModel': 'whisper-1' },
    "sttProvider 'transcribe' takes no 'sttOpenaiModel' (those are for sttProvider 'openai')",
  ],
  [{ 'kokoro-agent-runtime:sttProvider': 'openai' }, "sttProvider 'openai' needs 'sttOpenaiBaseUrl'"],
  [
    {
      'kokoro-agent-runtime:sttProvider': 'openai',
      'kokoro-agent-runtime:sttOpenaiBaseUrl': 'http://10.0.0.5:8000/v1',
    },
    "config 'sttOpenaiBaseUrl' must be an https:// URL, got 'http://10.0.0.5:8000/v1'",
  ],
  [{ 'kokoro-agent-runtime:sttProvider': 'whisper' }, 'sttProvider'],
])('bad STT config is refused at preview, naming the key: %j', async (config, message) => {
  await expect(runProgram(program(), options(config, 'transcribe', true))).rejects.toThrow(message);
});
