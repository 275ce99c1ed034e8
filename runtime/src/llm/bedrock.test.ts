import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { NodeHttp2Handler } from '@smithy/node-http-handler';
import { BedrockProvider, DEFAULT_BEDROCK_MODEL_ID } from './bedrock.ts';
import { LlmError } from './errors.ts';
import { runProviderSuite } from '../testing/llm-provider-suite.ts';
import { startFakeBedrock, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { bedrockAtFake } from '../testing/fake-llm-provider.ts';

const fakes: FakeLlmServer[] = [];
afterAll(async () => void (await Promise.all(fakes.map((f) => f.close()))));

async function setup(modelId = 'test.model-v1:0') {
  const fake = await startFakeBedrock();
  fakes.push(fake);
  const provider = bedrockAtFake(fake.url, { modelId, region: 'us-west-2', clientConfig: { maxAttempts: 1 } });
  return { fake, provider };
}

runProviderSuite('bedrock', async () => {
  const { fake, provider } = await setup();
  return { provider, upstreamGone: () => fake.clientGone() };
});

describe('BedrockProvider (Strands agent over ConverseStream)', () => {
  let fake: FakeLlmServer;
  let provider: BedrockProvider;
  beforeAll(async () => ({ fake, provider } = await setup()));

  test('calls ConverseStream for the model, SigV4-signed, with the system prompt', async () => {
    let text = '';
    for await (const delta of provider.stream('Hi there.', { systemPrompt: 'Be brief.' })) text += delta;
    expect(text).toBe('Hi there.');
    const request = fake.requests.at(-1)!;
    expect(decodeURIComponent(request.path)).toBe('/model/test.model-v1:0/converse-stream');
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-west-2\/bedrock\//,
    );
    expect(request.body).toMatchObject({
      messages: [{ role: 'user', content: [{ text: 'Hi there.' }] }],
      system: [{ text: 'Be brief.' }],
    });
  });

  test('an access error becomes an LlmError with code llm_unauthorized', async () => {
    fake.failNext(403, { message: 'You do not have access to the model' });
    const run = (async () => {
      for await (const _ of provider.stream('x')) throw new Error('no delta expected');
    })();
    await expect(run).rejects.toBeInstanceOf(LlmError);
    fake.failNext(403, { message: 'You do not have access to the model' });
    await expect(
      (async () => {
        for await (const _ of provider.stream('x'));
      })(),
    ).rejects.toMatchObject({
      code: 'llm_unauthorized',
      message: expect.stringMatching(/bedrock LLM failed \(HTTP 403\)/),
    });
  });

  test('turns share the model client: one connection for several turns', async () => {
    const { fake: own, provider: shared } = await setup();
    for (let i = 0; i < 3; i++) {
      let text = '';
      for await (const delta of shared.stream(`Turn ${i}.`)) text += delta;
      expect(text).toBe(`Turn ${i}.`);
    }
    expect(own.requests).toHaveLength(3);
    expect(own.connections()).toBe(1);
  });

  test("also streams over the AWS client's HTTP/2 handler when one is passed", async () => {
    const h2 = await startFakeBedrock({ http2: true });
    fakes.push(h2);
    const viaH2 = bedrockAtFake(h2.url, { clientConfig: { requestHandler: new NodeHttp2Handler() } });
    let text = '';
    for await (const delta of viaH2.stream('Over HTTP/2.')) text += delta;
    expect(text).toBe('Over HTTP/2.');
  });

  test('no AWS credentials is llm_unauthorized with the SDK message', async () => {
    const noCredentials = new BedrockProvider({
      clientConfig: {
        endpoint: fake.url,
        region: 'us-west-2',
        credentials: async () => {
          throw Object.assign(new Error('Could not load credentials from any providers'), {
            name: 'CredentialsProviderError',
          });
        },
      },
    });
    await expect(
      (async () => {
        for await (const _ of noCredentials.stream('x'));
      })(),
    ).rejects.toMatchObject({
      code: 'llm_unauthorized',
      message: 'bedrock LLM failed: Could not load credentials from any providers',
    });
  });

  test('describes the default model', () => {
    expect(new BedrockProvider().description).toContain(DEFAULT_BEDROCK_MODEL_ID);
  });
});
