// A fake LLM server of either wire format and the real provider pointed at it: the pairing the
// fault tests and the fault benchmark both run every fault through.
import { BedrockProvider } from '../llm/bedrock.ts';
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
  const provider = new BedrockProvider({
    modelId: 'm',
    region: 'us-west-2',
    clientConfig: {
      endpoint: fake.url,
      region: 'us-west-2',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    },
  });
  return { fake, provider };
}
