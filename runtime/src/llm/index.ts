// LLM providers behind one interface, and the factory that picks one from configuration.
import type { LlmProvider } from './types.ts';
import { BedrockProvider } from './bedrock.ts';
import { EchoProvider } from './echo.ts';
import { OpenAIProvider } from './openai.ts';

export type { LlmProvider, LlmStreamOptions } from './types.ts';
export { BedrockProvider, DEFAULT_BEDROCK_MODEL_ID, type BedrockProviderOptions } from './bedrock.ts';
export { EchoProvider, EchoModel, echoTokens, echoReply, type EchoOptions, type EchoReply } from './echo.ts';
export { oneShotText, textDeltaOf } from './one-shot.ts';
export { OpenAIProvider, type OpenAIProviderOptions } from './openai.ts';
export { LlmError, isAbortError, type LlmErrorCode } from './errors.ts';
export { DEFAULT_LLM_TIMEOUTS, ModelWatch, type LlmTimeouts } from './model-watch.ts';

export type LlmConfig =
  | { provider: 'echo'; firstTokenMs?: number; tokensPerSecond?: number }
  | { provider: 'openai'; baseURL: string; model: string; apiKey?: string; maxTokens?: number; timeoutMs?: number }
  | { provider: 'bedrock'; modelId?: string; region?: string; maxTokens?: number; timeoutMs?: number };

export function createLlmProvider(config: LlmConfig): LlmProvider {
  switch (config.provider) {
    case 'echo':
      return new EchoProvider(config);
    case 'openai':
      return new OpenAIProvider(config);
    case 'bedrock':
      return new BedrockProvider(config);
  }
}
