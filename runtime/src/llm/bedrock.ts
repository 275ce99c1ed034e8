// LLM provider for Amazon Bedrock through a Strands agent (ConverseStream). One Agent per turn:
// a turn is one prompt in this runtime, and an Agent keeps conversation state and runs one
// invocation at a time, so sharing one between concurrent sessions would mix them.
import { Agent } from '@strands-agents/sdk';
import { BedrockModel } from '@strands-agents/sdk/models/bedrock';
import type { BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { toLlmError } from './errors.ts';

/** Claude Haiku 4.5 through the global inference profile: fast first tokens suit voice. */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

export interface BedrockProviderOptions {
  modelId?: string;
  region?: string;
  maxTokens?: number;
  temperature?: number;
  /** Passed to the AWS SDK client (endpoint override and static credentials in tests). */
  clientConfig?: BedrockRuntimeClientConfig;
}

export class BedrockProvider implements LlmProvider {
  readonly name = 'bedrock';
  readonly description: string;
  readonly #options: BedrockProviderOptions;

  constructor(options: BedrockProviderOptions = {}) {
    this.#options = options;
    const modelId = options.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    this.description = `Bedrock model ${modelId}${options.region ? ` in ${options.region}` : ''} (Strands agent)`;
  }

  async *stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    const model = new BedrockModel({
      modelId: this.#options.modelId ?? DEFAULT_BEDROCK_MODEL_ID,
      ...(this.#options.region === undefined ? {} : { region: this.#options.region }),
      ...(this.#options.maxTokens === undefined ? {} : { maxTokens: this.#options.maxTokens }),
      ...(this.#options.temperature === undefined ? {} : { temperature: this.#options.temperature }),
      ...(this.#options.clientConfig === undefined ? {} : { clientConfig: this.#options.clientConfig }),
    });
    const agent = new Agent({
      model,
      printer: false,
      ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    });
    // Our own controller: Strands' stream keeps pumping the model after its consumer stops, so an
    // early stop (return) must abort the request before waiting for the stream to wind down.
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const events = agent.stream(prompt, { cancelSignal: controller.signal });
    try {
      for (;;) {
        const { done, value: event } = await events.next();
        if (done) break;
        if (
          event.type === 'modelStreamUpdateEvent' &&
          event.event.type === 'modelContentBlockDeltaEvent' &&
          event.event.delta.type === 'textDelta' &&
          event.event.delta.text
        ) {
          yield event.event.delta.text;
        }
      }
      // Strands ends a cancelled invocation normally (stopReason 'cancelled'): surface it as abort.
      signal?.throwIfAborted();
    } catch (error) {
      throw toLlmError('bedrock', error, signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!controller.signal.aborted) controller.abort();
      await events.return(undefined as never).catch(() => undefined);
    }
  }
}
