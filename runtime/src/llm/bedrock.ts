// LLM provider for Amazon Bedrock through a Strands agent (ConverseStream). One Agent per turn:
// a turn is one prompt in this runtime, and an Agent keeps conversation state and runs one
// invocation at a time, so sharing one between concurrent sessions would mix them. The model (and
// its AWS client) is shared, and its requests go over HTTP/1.1 with keep-alive: the Bedrock client's
// default HTTP/2 handler opens an isolated session (a new TLS handshake) for every event stream,
// while a pooled HTTP/1.1 connection spares that before each turn's first token.
import { Agent } from '@strands-agents/sdk';
import { BedrockModel } from '@strands-agents/sdk/models/bedrock';
import type { BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { toLlmError } from './errors.ts';

/** Claude Haiku 4.5 through the global inference profile: fast first tokens suit voice. */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

export interface BedrockProviderOptions {
  modelId?: string;
  region?: string;
  maxTokens?: number;
  temperature?: number;
  /** Passed to the AWS SDK client (endpoint override and static credentials in tests). Default
   *  request handler: HTTP/1.1 with keep-alive (see above). */
  clientConfig?: BedrockRuntimeClientConfig;
}

export class BedrockProvider implements LlmProvider {
  readonly name = 'bedrock';
  readonly description: string;
  readonly #model: BedrockModel;

  constructor(options: BedrockProviderOptions = {}) {
    const modelId = options.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    this.description = `Bedrock model ${modelId}${options.region ? ` in ${options.region}` : ''} (Strands agent)`;
    this.#model = new BedrockModel({
      modelId,
      ...(options.region === undefined ? {} : { region: options.region }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      clientConfig: { requestHandler: new NodeHttpHandler(), ...options.clientConfig },
    });
  }

  async *stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    const agent = new Agent({
      model: this.#model,
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
