// The offline `echo` model: streams the prompt back as its answer at LLM-like pace, so the whole
// pipeline can run (tests, benchmarks, the offline local mode) with no model and no network.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LlmProvider, LlmStreamOptions } from './types.ts';

export interface EchoOptions {
  /** Delay before the first token, in ms (a real LLM's time to first token). Default 400. */
  firstTokenMs?: number;
  /** Tokens per second after the first one. Default 40. */
  tokensPerSecond?: number;
}

/**
 * Splits text the way a BPE tokenizer roughly does for English: each token is a word with its
 * leading whitespace (" world"), words longer than 8 characters are cut in two-plus pieces, and
 * punctuation travels with the word. Joined, the tokens equal the input.
 */
export function echoTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(/\s*\S+|\s+$/g)) {
    const token = match[0];
    // Long words become several tokens, as they do for real tokenizers.
    for (let i = 0; i < token.length; i += 8) tokens.push(token.slice(i, i + 8));
  }
  return tokens;
}

export class EchoProvider implements LlmProvider {
  readonly name = 'echo';
  readonly description: string;
  readonly firstTokenMs: number;
  readonly tokensPerSecond: number;

  constructor(options: EchoOptions = {}) {
    this.firstTokenMs = options.firstTokenMs ?? 400;
    this.tokensPerSecond = options.tokensPerSecond ?? 40;
    if (!Number.isFinite(this.firstTokenMs) || this.firstTokenMs < 0) {
      throw new RangeError(`echo firstTokenMs must be a number >= 0, got ${options.firstTokenMs}`);
    }
    if (!Number.isFinite(this.tokensPerSecond) || this.tokensPerSecond <= 0) {
      throw new RangeError(`echo tokensPerSecond must be a number > 0, got ${options.tokensPerSecond}`);
    }
    this.description =
      `echo model (offline stand-in, no LLM): repeats the prompt as its answer, ` +
      `first token after ${this.firstTokenMs} ms, ${this.tokensPerSecond} tokens/s`;
  }

  async *stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    const start = performance.now();
    const interval = 1000 / this.tokensPerSecond;
    const tokens = echoTokens(prompt);
    for (const [i, token] of tokens.entries()) {
      // Due times are absolute so that slow consumers or timer jitter do not add up into drift.
      const due = start + this.firstTokenMs + i * interval;
      // A loop: libuv measures timers from its cached loop time, so one can fire a little early.
      for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) {
        await sleep(Math.ceil(wait), undefined, signal ? { signal } : {});
      }
      signal?.throwIfAborted();
      yield token;
    }
  }
}
