// A fake LLM server of either wire format and the real provider pointed at it: the pairing the
// fault tests and the fault benchmark both run every fault through.
import { BedrockProvider, type BedrockProviderOptions } from '../llm/bedrock.ts';
import { OpenAIProvider } from '../llm/openai.ts';
import type { LlmProvider } from '../llm/types.ts';
import { startFakeBedrock, startFakeOpenAI, type FakeLlmOptions, type FakeLlmServer } from './fake-llm-servers.ts';

export type LlmWire = 'openai' | 'bedrock';

export async function startFakeLlm(
  wire: LlmWire,
  options: FakeLlmOptions,
): Promise<{ fake: FakeLlmServer; provider: LlmProvider }> {
  if (wire === 'openai') {
    const fake = await startFakeOpenAI(options);
    return { fake, provider: new OpenAIProvider({ baseURL: `${fake.url}/v1`, model: 'm' }) };
  }
  const fake = await startFakeBedrock(options);
  return { fake, provider: bedrockAtFake(fake.url, { region: 'us-west-2' }) };
}

/**
 * The real Bedrock provider (model `m` unless given) pointed at a fake Bedrock at `url`, in
 * us-west-2, SigV4-signed with example keys; `clientConfig` adds to (or overrides) that client's.
 */
export function bedrockAtFake(url: string, options: BedrockProviderOptions = {}): BedrockProvider {
  const { clientConfig, ...rest } = options;
  return new BedrockProvider({
    modelId: 'm',
    ...rest,
    clientConfig: {
      endpoint: url,
      region: 'us-west-2',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      ...clientConfig,
    },
  });
}
