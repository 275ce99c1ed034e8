// LLM provider for any OpenAI-compatible chat completions server (OpenAI, vLLM, Ollama, LM Studio,
// llama.cpp, LiteLLM...): Strands' OpenAIModel on the Chat Completions API, so that it runs the same
// agent loop (tools, memory) as Bedrock. Two compatibility choices for local servers: the answer
// cap goes as `max_tokens` (what they all accept; Strands would send OpenAI's newer
// `max_completion_tokens`), and text-only message content goes as a plain string (some servers
// take no content-part arrays), through a small OpenAI client subclass.
import OpenAI from 'openai';
import { OpenAIModel } from '@strands-agents/sdk/models/openai';
import type { Message, ModelStreamEvent, StreamOptions } from '@strands-agents/sdk';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { oneShotText } from './one-shot.ts';
import { checkedFetch } from './openai-wire.ts';
import { OPENAI_MAX_RETRIES } from './retries.ts';
import { DEFAULT_LLM_TIMEOUTS } from './model-watch.ts';

export interface OpenAIProviderOptions {
  /** e.g. http://127.0.0.1:11434/v1 */
  baseURL: string;
  model: string;
  /** Local servers usually need none; the client requires a string, so a placeholder is sent. */
  apiKey?: string;
  maxTokens?: number;
  /** The client's wait for response headers, per attempt, in ms; default the first-token timeout
   *  (20 s): the speech timeouts (model-watch.ts) bound the whole answer anyway. */
  timeoutMs?: number;
}

/** An OpenAI client that sends text-only content-part arrays as plain strings. */
class PlainTextContentOpenAI extends OpenAI {
  // The parameter is the client's FinalRequestOptions (not exported): only its body is read here.
  protected override async prepareOptions(options: { body?: unknown }): Promise<void> {
    await super.prepareOptions(options as never);
    const messages = (options.body as { messages?: { content?: unknown }[] } | undefined)?.messages;
    if (!Array.isArray(messages)) return;
    for (const message of messages) {
      const parts = message.content;
      if (Array.isArray(parts) && parts.length > 0 && parts.every(isTextPart))
        message.content = parts.map((p) => p.text).join('');
    }
  }
}

function isTextPart(part: unknown): part is { type: 'text'; text: string } {
  return (part as { type?: unknown })?.type === 'text' && typeof (part as { text?: unknown }).text === 'string';
}

/**
 * Strands' OpenAIModel with its Chat Completions events made whole. Two fixes of the library's
 * event order (1.19), hand-written, to drop once Strands does them itself:
 * - The message starts even when no chunk carries `role`. The adapter starts the message only on
 *   a delta with a role (OpenAI sends one in its first chunk; some compatible servers and proxies
 *   send none), and Strands' aggregation stores a message only if it started, so a role-less
 *   answer ended every turn with "Stream ended without completing a message" although it had its
 *   finish_reason and [DONE]. A chat completion is the assistant's message: it starts as that at
 *   its first event, and a role arriving later does not start it again (which would drop the
 *   blocks before it).
 * - Content blocks close in order. The adapter opens a tool call's block while the text block
 *   before it is still open and closes them all at the end; Strands' aggregation then loses that
 *   text, so the stored assistant message would lack what the model said before calling a tool.
 *   Each block start here first closes the open block, and the adapter's late stops are dropped.
 */
class WellFormedOpenAIModel extends OpenAIModel {
  override async *stream(messages: Message[], options?: StreamOptions): AsyncIterable<ModelStreamEvent> {
    let started = false;
    let open = false;
    for await (const event of super.stream(messages, options)) {
      if (event.type === 'modelMessageStartEvent') {
        if (started) continue; // a role that came late
        started = true;
      } else if (!started && event.type !== 'modelMetadataEvent') {
        yield { type: 'modelMessageStartEvent', role: 'assistant' };
        started = true;
      }
      if (event.type === 'modelContentBlockStartEvent') {
        if (open) yield { type: 'modelContentBlockStopEvent' };
        open = true;
      } else if (event.type === 'modelContentBlockStopEvent') {
        if (!open) continue;
        open = false;
      } else if (event.type === 'modelMessageStopEvent' && open) {
        yield { type: 'modelContentBlockStopEvent' };
        open = false;
      }
      yield event;
    }
  }
}

export class OpenAIProvider implements LlmProvider {
  readonly name = 'openai';
  readonly description: string;
  readonly model: OpenAIModel;
  /** Where the client posts, named in the error when the server gives no answer. */
  readonly request: string;

  constructor(options: OpenAIProviderOptions) {
    if (!/^https?:\/\//.test(options.baseURL) || !URL.canParse(options.baseURL))
      throw new TypeError(`OpenAI base URL is not an http(s) URL: ${options.baseURL}`);
    if (!options.model) throw new TypeError('OpenAI model must not be empty');
    this.description = `OpenAI-compatible model ${options.model} at ${options.baseURL}`;
    this.request = `POST ${options.baseURL.replace(/\/+$/, '')}/chat/completions`;
    const client = new PlainTextContentOpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs ?? DEFAULT_LLM_TIMEOUTS.firstTokenMs,
      // One retry covers a dropped keep-alive connection; more would hold the caller's first audio.
      maxRetries: OPENAI_MAX_RETRIES,
      // Broken answer streams become errors naming what was wrong (openai-wire.ts).
      fetch: checkedFetch('openai'),
    });
    this.model = new WellFormedOpenAIModel({
      api: 'chat',
      modelId: options.model,
      client,
      ...(options.maxTokens === undefined ? {} : { params: { max_tokens: options.maxTokens } }),
    });
  }

  stream(prompt: string, options: LlmStreamOptions = {}): AsyncIterable<string> {
    return oneShotText(this, prompt, options);
  }
}
