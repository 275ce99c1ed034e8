// LLM provider for Amazon Bedrock: Strands' BedrockModel (ConverseStream). An Agent keeps one
// conversation and runs one invocation at a time, so each session (or one-shot turn) has its own;
// the model (and its AWS client) is shared, and its requests go over HTTP/1.1 with keep-alive: the
// Bedrock client's default HTTP/2 handler opens an isolated session (a new TLS handshake) for every
// event stream, while a pooled HTTP/1.1 connection spares that before each turn's first token.
import { BedrockModel } from '@strands-agents/sdk/models/bedrock';
import type { BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { oneShotText } from './one-shot.ts';
import { EventStreamCheckingHandler } from './bedrock-wire.ts';
import { AWS_MAX_ATTEMPTS } from './retries.ts';
import { DEFAULT_LLM_TIMEOUTS } from './model-watch.ts';

/** Claude Haiku 4.5 through the global inference profile: fast first tokens suit voice. */
export const DEFAULT_BEDROCK_MODEL_ID = 'global.anthropic.claude-haiku-4-5-20251001-v1:0';

export interface BedrockProviderOptions {
  modelId?: string;
  region?: string;
  maxTokens?: number;
  temperature?: number;
  /** Passed to the AWS SDK client (endpoint override and static credentials in tests). Default
   *  request handler: HTTP/1.1 with keep-alive (see above), checking that a streamed answer is an
   *  event stream (bedrock-wire.ts); default maxAttempts 2 (retries.ts). */
  clientConfig?: BedrockRuntimeClientConfig;
  /** The longest connect, in ms; default the first-token timeout (20 s). */
  timeoutMs?: number;
}

export class BedrockProvider implements LlmProvider {
  readonly name = 'bedrock';
  readonly description: string;
  readonly model: BedrockModel;

  constructor(options: BedrockProviderOptions = {}) {
    const modelId = options.modelId ?? DEFAULT_BEDROCK_MODEL_ID;
    this.description = `Bedrock model ${modelId}${options.region ? ` in ${options.region}` : ''} (Strands agent)`;
    this.model = new BedrockModel({
      modelId,
      ...(options.region === undefined ? {} : { region: options.region }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      clientConfig: {
        requestHandler: new EventStreamCheckingHandler({
          connectionTimeout: options.timeoutMs ?? DEFAULT_LLM_TIMEOUTS.firstTokenMs,
        }),
        maxAttempts: AWS_MAX_ATTEMPTS,
        ...options.clientConfig,
      },
    });
  }

  stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    return oneShotText(this, prompt, options);
  }
}
