// The LLM provider interface: a Strands model that every turn's agent loop runs on (tools and
// conversation memory included), and a one-shot helper: a prompt in, the answer's text deltas out.
import type { Model } from '@strands-agents/sdk';
import type { LlmTimeouts } from './model-watch.ts';

export interface LlmStreamOptions {
  signal?: AbortSignal;
  systemPrompt?: string;
  /** The speech timeouts (model-watch.ts); default 20 s to the first token, 15 s between tokens. */
  timeouts?: LlmTimeouts;
}

export interface LlmProvider {
  /** 'bedrock' | 'openai' | 'echo'; shown to users (the echo model must be announced). */
  readonly name: string;
  /** Human-readable description, e.g. the model id. */
  readonly description: string;
  /** The Strands model behind every agent of this provider. Stateless, shared by all sessions. */
  readonly model: Model;
  /** The request a call sends ("POST http://host/v1/chat/completions"), where there is one to
   *  name: a failure that got no answer says what it tried. */
  readonly request?: string;
  /** Text deltas of the answer to one prompt (a fresh agent: no memory, no tools). Stops promptly
   *  (and rejects with an AbortError) when signal aborts. */
  stream(prompt: string, options?: LlmStreamOptions): AsyncIterable<string>;
}

/** What an LLM failure names: the provider, and the request it tried where it has one. */
export type LlmFailureSource = Pick<LlmProvider, 'name' | 'request'>;
