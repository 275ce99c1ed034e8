// The offline `echo` model: streams the prompt back as its answer at LLM-like pace, so the whole
// pipeline can run (tests, benchmarks, the offline local mode) with no model and no network. It is
// a Strands model (./echo-model.ts): turns run the real agent loop, with memory and tools.
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { EchoModel } from './echo-model.ts';
import { oneShotText } from './one-shot.ts';

export { echoTokens, echoReply, EchoModel, type EchoReply } from './echo-model.ts';

export interface EchoOptions {
  /** Delay before the first token, in ms (a real LLM's time to first token). Default 400. */
  firstTokenMs?: number;
  /** Tokens per second after the first one. Default 40. */
  tokensPerSecond?: number;
}

export class EchoProvider implements LlmProvider {
  readonly name = 'echo';
  readonly description: string;
  readonly firstTokenMs: number;
  readonly tokensPerSecond: number;
  readonly model: EchoModel;

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
    this.model = new EchoModel({ firstTokenMs: this.firstTokenMs, tokensPerSecond: this.tokensPerSecond });
  }

  stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    return oneShotText(this, prompt, options);
  }
}
