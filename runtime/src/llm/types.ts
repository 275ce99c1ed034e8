// The LLM provider interface: a prompt in, the answer's text deltas out, as they are generated.

export interface LlmStreamOptions {
  signal?: AbortSignal;
  systemPrompt?: string;
}

export interface LlmProvider {
  /** 'bedrock' | 'openai' | 'echo'; shown to users (the echo model must be announced). */
  readonly name: string;
  /** Human-readable description, e.g. the model id. */
  readonly description: string;
  /** Text deltas of the answer. Stops promptly (and rejects with an AbortError) when signal aborts. */
  stream(prompt: string, options?: LlmStreamOptions): AsyncIterable<string>;
}
