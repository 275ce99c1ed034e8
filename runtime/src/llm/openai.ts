// LLM provider for any OpenAI-compatible chat completions server (OpenAI, vLLM, Ollama, LM Studio,
// llama.cpp, LiteLLM...). Uses the openai client directly rather than Strands' OpenAIModel: a turn
// here is one streamed completion without tools, so the agent loop adds nothing, and the client
// takes an AbortSignal per request, which is what barge-in needs.
import OpenAI from 'openai';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { toLlmError } from './errors.ts';

export interface OpenAIProviderOptions {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  model: string;
  /** Local servers usually need none; the client requires a string, so a placeholder is sent. */
  apiKey?: string;
  maxTokens?: number;
  /** Per-request timeout in ms. Default 60 s. */
  timeoutMs?: number;
}

export class OpenAIProvider implements LlmProvider {
  readonly name = 'openai';
  readonly description: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIProviderOptions;

  constructor(options: OpenAIProviderOptions) {
    if (!/^https?:\/\//.test(options.baseURL) || !URL.canParse(options.baseURL))
      throw new TypeError(`OpenAI base URL is not an http(s) URL: ${options.baseURL}`);
    if (!options.model) throw new TypeError('OpenAI model must not be empty');
    this.#options = options;
    this.description = `OpenAI-compatible model ${options.model} at ${options.baseURL}`;
    this.#client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs ?? 60_000,
      // One retry covers a dropped keep-alive connection; more would hold the caller's first audio.
      maxRetries: 1,
    });
  }

  async *stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    if (options.systemPrompt) messages.push({ role: 'system', content: options.systemPrompt });
    messages.push({ role: 'user', content: prompt });
    try {
      const stream = await this.#client.chat.completions.create(
        {
          model: this.#options.model,
          messages,
          stream: true,
          ...(this.#options.maxTokens === undefined ? {} : { max_tokens: this.#options.maxTokens }),
        },
        signal ? { signal } : {},
      );
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta?.content;
        if (delta) yield delta;
      }
      // The openai stream ends quietly when its signal aborts: surface the abort.
      signal?.throwIfAborted();
    } catch (error) {
      const url = `${this.#options.baseURL.replace(/\/+$/, '')}/chat/completions`; // where the client posts
      throw toLlmError('openai', error, signal, `POST ${url}`);
    }
  }
}
