import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { EchoProvider, echoTokens } from './echo.ts';
import { runProviderSuite } from '../testing/llm-provider-suite.ts';

runProviderSuite('echo', async () => ({ provider: new EchoProvider({ firstTokenMs: 5, tokensPerSecond: 2000 }) }));

describe('EchoProvider', () => {
  test('tokens join to the input for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => expect(echoTokens(text).join('')).toBe(text)),
    );
    expect(echoTokens('Hello  world.\n\nThe incomprehensibilities end ')).toEqual([
      'Hello',
      '  world.',
      '\n\nThe',
      ' incompr',
      'ehensibi',
      'lities',
      ' end',
      ' ',
    ]);
  });

  test('waits at least the first-token delay and paces tokens (lower bounds only)', async () => {
    const provider = new EchoProvider({ firstTokenMs: 50, tokensPerSecond: 100 });
    const start = performance.now();
    const arrivals: number[] = [];
    for await (const _ of provider.stream('one two three four five six')) arrivals.push(performance.now() - start);
    expect(arrivals).toHaveLength(6);
    // The provider re-checks the clock after each timer, so these bounds cannot flake under load.
    expect(arrivals[0]).toBeGreaterThanOrEqual(50);
    expect(arrivals[5]).toBeGreaterThanOrEqual(50 + 5 * 10);
  });

  test('abort interrupts the first-token wait (a 60 s delay ends at once)', async () => {
    const provider = new EchoProvider({ firstTokenMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    // Without the abort this would not settle within the test's timeout.
    const first = provider.stream('never spoken', { signal: controller.signal })[Symbol.asyncIterator]().next();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('announces itself as the echo model and rejects bad settings', () => {
    const provider = new EchoProvider({ firstTokenMs: 400, tokensPerSecond: 40 });
    expect(provider.name).toBe('echo');
    expect(provider.description).toMatch(/echo model.*no LLM.*400 ms.*40 tokens\/s/);
    expect(() => new EchoProvider({ tokensPerSecond: 0 })).toThrow(/tokensPerSecond must be a number > 0/);
    expect(() => new EchoProvider({ firstTokenMs: -1 })).toThrow(/firstTokenMs must be a number >= 0/);
  });
});
