// One test suite every LLM provider runs: the answer streams in several deltas, abort and early
// stop end the stream (and the upstream request, where there is one).
import { describe, expect, test } from '@jest/globals';
import type { LlmProvider } from '../llm/types.ts';

export interface ProviderUnderTest {
  provider: LlmProvider;
  /** Resolves once the upstream saw its client go away (absent for providers with no upstream). */
  upstreamGone?: () => Promise<void>;
}

const PROMPT = 'Hello there. This answer is streamed back in small pieces, as an LLM would.';

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

export function runProviderSuite(name: string, setup: () => Promise<ProviderUnderTest>): void {
  describe(`${name} provider (shared suite)`, () => {
    test('streams the answer in several deltas that join to the whole answer', async () => {
      const { provider } = await setup();
      const deltas = await collect(provider.stream(PROMPT));
      expect(deltas.length).toBeGreaterThan(3);
      expect(deltas.join('')).toBe(PROMPT);
    });

    test('abort mid-stream rejects with an AbortError and ends the upstream request', async () => {
      const { provider, upstreamGone } = await setup();
      const controller = new AbortController();
      const deltas: string[] = [];
      const run = (async () => {
        for await (const delta of provider.stream(PROMPT, { signal: controller.signal })) {
          deltas.push(delta);
          if (deltas.length === 2) controller.abort();
        }
      })();
      await expect(run).rejects.toMatchObject({ name: 'AbortError' });
      expect(deltas.length).toBe(2);
      if (upstreamGone) await upstreamGone();
    });

    test('an already aborted signal rejects before anything is produced', async () => {
      const { provider } = await setup();
      const controller = new AbortController();
      controller.abort();
      await expect(collect(provider.stream(PROMPT, { signal: controller.signal }))).rejects.toMatchObject({
        name: 'AbortError',
      });
    });

    test('concurrent turns on one provider do not mix their answers', async () => {
      const { provider } = await setup();
      const prompts = ['First caller asks this. Alone.', 'Second caller, another question entirely?', 'Third: short.'];
      const answers = await Promise.all(prompts.map(async (p) => (await collect(provider.stream(p))).join('')));
      expect(answers).toEqual(prompts);
    });

    test('a consumer that stops early releases the upstream request', async () => {
      const { provider, upstreamGone } = await setup();
      for await (const delta of provider.stream(PROMPT)) {
        expect(delta.length).toBeGreaterThan(0);
        break;
      }
      if (upstreamGone) await upstreamGone();
    });
  });
}
