// The echo model as a Strands model, so that the offline mode, the tests and the benchmarks run
// the real Strands agent loop (memory, tools) with no LLM. Deterministic rules, in this order:
// - "What did I say before?" / "What did you say before?" answer from the conversation it is given
//   (the previous prompt; the previous answer as stored, e.g. cut at what the caller heard);
// - a prompt with tool directives, `<tool name="NAME">{json input}</tool>`, is spoken in parts: the
//   text before the first directive, then a call of that tool, then (once its result is in the
//   conversation) the text after it, with `{result}` replaced by the tool's result text, and so on;
//   a built-in tool may be named either way (`calculator` or `calculate`), and a tool that is not
//   enabled is still called (its result is the loop's error, as for a real model) and the answer
//   says which tools are enabled;
// - anything else is echoed back.
// Hand-written because no library offers a scripted Strands model (Strands' own test doubles are
// not part of its package).
import { setTimeout as sleep } from 'node:timers/promises';
import { Model, type Message, type ModelStreamEvent, type StreamOptions } from '@strands-agents/sdk';
import type { JSONValue } from '@strands-agents/sdk';
import { BUILTIN_TOOL_IDS, builtinToolId } from '../config/tool-names.ts';

export interface EchoModelConfig {
  modelId?: string;
  /** Delay before the first token of each model call, in ms. */
  firstTokenMs: number;
  /** Tokens per second after the first one. */
  tokensPerSecond: number;
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

export interface EchoReply {
  text: string;
  toolUse?: { name: string; input: JSONValue; toolUseId: string };
}

const DIRECTIVE = /<tool name="([A-Za-z0-9_-]{1,64})">([\s\S]*?)<\/tool>/g;
const WHAT_DID_I_SAY = /^\s*what did i (?:just )?say(?: before)?\s*\?*\s*$/i;
const WHAT_DID_YOU_SAY = /^\s*what did you (?:just )?say(?: before)?\s*\?*\s*$/i;

const textOf = (m: Message): string =>
  m.content.map((b) => (b.type === 'textBlock' ? (b as { text: string }).text : '')).join('');
const isPrompt = (m: Message): boolean =>
  m.role === 'user' && m.content.some((b) => b.type === 'textBlock') && !m.content.some(isToolResult);
const isToolResult = (b: { type: string }): boolean => b.type === 'toolResultBlock';

/** The tool a directive names: itself, or the enabled built-in tool it is another name of. */
function toolNamed(name: string, enabled: readonly string[] | undefined): string {
  if (!enabled || enabled.includes(name)) return name;
  const id = builtinToolId(name);
  return id && enabled.includes(id) ? id : name;
}

/** Said after the result of a tool that is not enabled: which ones are, and how to enable the built-ins. */
function notEnabled(name: string, enabled: readonly string[]): string {
  const on = enabled.length > 0 ? `the enabled tools are ${enabled.join(', ')}` : 'no tools are enabled';
  const builtins = Object.keys(BUILTIN_TOOL_IDS).join(' and ');
  return ` (there is no tool ${name} here: ${on}; BUILTIN_TOOLS turns on the built-in ones, ${builtins})`;
}

/**
 * What the echo model answers to this conversation (its last message is the user's turn).
 * `enabled`: the names of the agent's tools (Strands' tool specs), when known.
 */
export function echoReply(messages: readonly Message[], enabled?: readonly string[]): EchoReply {
  const at = messages.findLastIndex(isPrompt);
  if (at < 0) return { text: '' };
  const prompt = textOf(messages[at]!);
  const cycle = messages.slice(at + 1).filter((m) => m.role === 'user' && m.content.some(isToolResult)).length;
  const directives = [...prompt.matchAll(DIRECTIVE)];
  if (directives.length === 0) {
    if (WHAT_DID_I_SAY.test(prompt)) {
      const before = messages.slice(0, at).findLast(isPrompt);
      return { text: before ? `You said: ${textOf(before)}` : 'You have not said anything before.' };
    }
    if (WHAT_DID_YOU_SAY.test(prompt)) {
      const previous = messages.slice(0, at).findLastIndex(isPrompt);
      const said = messages
        .slice(previous + 1, at)
        .filter((m) => m.role === 'assistant')
        .map(textOf)
        .join(' ')
        .trim();
      return { text: previous >= 0 && said ? `I said: ${said}` : 'I have not said anything yet.' };
    }
    return { text: prompt };
  }
  // Segment k is the text before directive k (or after the last one); cycle k speaks segment k.
  const starts = [0, ...directives.map((d) => d.index! + d[0].length)];
  const ends = [...directives.map((d) => d.index!), prompt.length];
  const segment = prompt.slice(starts[cycle] ?? prompt.length, ends[cycle] ?? prompt.length);
  const lastResult = messages
    .slice(at + 1)
    .flatMap((m) => m.content)
    .findLast(isToolResult) as
    { status: string; content: { type: string; text?: string; json?: unknown }[] } | undefined;
  let resultText = lastResult
    ? lastResult.content.map((c) => c.text ?? (c.json === undefined ? '' : JSON.stringify(c.json))).join('')
    : '';
  const called = cycle > 0 ? toolNamed(directives[cycle - 1]![1]!, enabled) : undefined;
  const missing = called !== undefined && enabled !== undefined && !enabled.includes(called);
  if (missing) resultText += notEnabled(called, enabled);
  let text = cycle > 0 ? segment.replaceAll('{result}', resultText) : segment;
  // Without {result} in the prompt, the reason is said anyway: a silent failure explains nothing.
  if (missing && !segment.includes('{result}')) text = `${resultText.trim()}. ${text.trimStart()}`.trimEnd();
  const directive = directives[cycle];
  if (!directive) return { text };
  let input: JSONValue = {};
  try {
    input = directive[2]!.trim() ? (JSON.parse(directive[2]!) as JSONValue) : {};
  } catch {
    input = { raw: directive[2]! };
  }
  return { text, toolUse: { name: toolNamed(directive[1]!, enabled), input, toolUseId: `echo_tool_${at}_${cycle}` } };
}

export class EchoModel extends Model<EchoModelConfig> {
  #config: EchoModelConfig;

  constructor(config: EchoModelConfig) {
    super();
    this.#config = config;
  }

  updateConfig(config: EchoModelConfig): void {
    this.#config = { ...this.#config, ...config };
  }

  getConfig(): EchoModelConfig {
    return { modelId: 'echo', ...this.#config };
  }

  async *stream(messages: Message[], options: StreamOptions = {}): AsyncIterable<ModelStreamEvent> {
    const signal = options.cancelSignal;
    signal?.throwIfAborted();
    const reply = echoReply(
      messages,
      options.toolSpecs?.map((spec) => spec.name),
    );
    const start = performance.now();
    const interval = 1000 / this.#config.tokensPerSecond;
    /** Waits until token i is due: absolute times, so slow consumers or timer jitter do not drift. */
    const due = async (i: number) => {
      const at = start + this.#config.firstTokenMs + i * interval;
      // A loop: libuv measures timers from its cached loop time, so one can fire a little early.
      for (let wait = at - performance.now(); wait > 0; wait = at - performance.now())
        await sleep(Math.ceil(wait), undefined, signal ? { signal } : {});
      signal?.throwIfAborted();
    };
    yield { type: 'modelMessageStartEvent', role: 'assistant' };
    const tokens = echoTokens(reply.text);
    if (tokens.length > 0) {
      yield { type: 'modelContentBlockStartEvent' };
      for (const [i, token] of tokens.entries()) {
        await due(i);
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: token } };
      }
      yield { type: 'modelContentBlockStopEvent' };
    }
    if (reply.toolUse) {
      await due(tokens.length);
      const { name, toolUseId, input } = reply.toolUse;
      yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name, toolUseId } };
      yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: JSON.stringify(input) } };
      yield { type: 'modelContentBlockStopEvent' };
    }
    yield { type: 'modelMessageStopEvent', stopReason: reply.toolUse ? 'toolUse' : 'endTurn' };
    yield {
      type: 'modelMetadataEvent',
      usage: { inputTokens: 0, outputTokens: tokens.length, totalTokens: tokens.length },
      metrics: { latencyMs: Math.round(performance.now() - start) },
    };
  }
}
