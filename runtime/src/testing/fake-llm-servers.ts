// Fake LLM services on loopback, speaking the real wire formats (mocks of external services at
// the wire, not of our code): an OpenAI-compatible chat completions SSE server and a Bedrock
// ConverseStream endpoint (AWS event stream). By default both answer by echoing the last user
// message in small chunks, one chunk every `chunkDelayMs`; a `reply` script can answer anything,
// tool calls included (streamed as those APIs stream them). Both record what they saw. A `fault`
// breaks the answer as real servers and proxies do: silence before any byte, a stall after some
// chunks, an end with no finish reason, garbage bytes, or a 200 HTML page instead of a stream.
import { setTimeout as sleep } from 'node:timers/promises';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startFake, type FakeLlmOptions, type FakeLlmServer, type FakeRequest } from './fake-llm-core.ts';

export type { FakeFault, FakeLlmOptions, FakeLlmServer, FakeReply, FakeRequest } from './fake-llm-core.ts';

type OpenAIMessage = { role: string; content: unknown; tool_call_id?: string };
const openAIText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((p: { text?: string }) => p.text ?? '').join('')
      : '';

function readOpenAI(body: unknown): FakeRequest {
  const messages = (body as { messages: OpenAIMessage[] }).messages;
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return {
    body,
    lastUserText: openAIText(messages.filter((m) => m.role === 'user').at(-1)?.content),
    toolResults: messages
      .slice(lastAssistant + 1)
      .filter((m) => m.role === 'tool')
      .map((m) => {
        const text = openAIText(m.content);
        return { id: m.tool_call_id ?? '', text: text.replace(/^\[ERROR\] /, ''), error: text.startsWith('[ERROR] ') };
      }),
    messageCount: messages.filter((m) => m.role !== 'system').length,
  };
}

/** OpenAI-compatible: POST /v1/chat/completions with stream: true -> `data: {chunk}` lines. */
export function startFakeOpenAI(options: FakeLlmOptions = {}): Promise<FakeLlmServer> {
  const delay = options.chunkDelayMs ?? 5;
  return startFake(
    readOpenAI,
    async (res, body, chunks, reply, isGone, broken) => {
      const model = (body as { model: string }).model;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frame = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const role = options.role ?? 'first';
      res.write(frame(role === 'first' ? { role: 'assistant', content: '' } : { content: '' }, null));
      for (const [i, chunk] of chunks.entries()) {
        if (await broken(i)) return;
        await sleep(delay);
        if (isGone()) return;
        res.write(frame({ content: chunk }, null));
      }
      const calls = reply.toolCalls ?? [];
      for (const [index, call] of calls.entries()) {
        await sleep(delay);
        if (isGone()) return;
        // As OpenAI streams them: id and name first, then the arguments in pieces.
        const args = JSON.stringify(call.input);
        const half = Math.ceil(args.length / 2);
        res.write(
          frame(
            { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
            null,
          ),
        );
        res.write(frame({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }, null));
        res.write(frame({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, null));
      }
      if (await broken(chunks.length)) return;
      res.write(frame(role === 'last' ? { role: 'assistant' } : {}, calls.length > 0 ? 'tool_calls' : 'stop'));
      res.end('data: [DONE]\n\n');
    },
    // What a proxy's error page looks like in the middle of a stream: lines that are not SSE.
    '<html><body><h1>504 Gateway Time-out</h1></body></html>\n\n',
    options,
  );
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);
function bedrockEvent(eventType: string, payload: object): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

type BedrockBlock = {
  text?: string;
  toolResult?: { toolUseId: string; status?: string; content: { text?: string; json?: unknown }[] };
};
type BedrockMessage = { role: string; content: BedrockBlock[] };

function readBedrock(body: unknown): FakeRequest {
  const messages = (body as { messages: BedrockMessage[] }).messages;
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return {
    body,
    lastUserText:
      messages
        .filter((m) => m.role === 'user' && m.content.some((c) => c.text !== undefined))
        .at(-1)
        ?.content.map((c) => c.text ?? '')
        .join('') ?? '',
    toolResults: messages
      .slice(lastAssistant + 1)
      .flatMap((m) => m.content)
      .filter((c) => c.toolResult)
      .map(({ toolResult: r }) => ({
        id: r!.toolUseId,
        text: r!.content.map((c) => c.text ?? JSON.stringify(c.json)).join(''),
        error: r!.status === 'error',
      })),
    messageCount: messages.length,
  };
}

/** Bedrock ConverseStream: POST /model/<id>/converse-stream -> AWS event stream of Converse events,
 *  over HTTP/1.1 (what BedrockProvider uses) or, with `http2`, HTTP/2 cleartext (the AWS client's default). */
export function startFakeBedrock(options: FakeLlmOptions & { http2?: boolean } = {}): Promise<FakeLlmServer> {
  const delay = options.chunkDelayMs ?? 5;
  return startFake(
    readBedrock,
    async (res, _body, chunks, reply, isGone, broken) => {
      res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-1' });
      res.write(bedrockEvent('messageStart', { role: 'assistant' }));
      for (const [i, chunk] of chunks.entries()) {
        if (await broken(i)) return;
        await sleep(delay);
        if (isGone()) return;
        res.write(bedrockEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: chunk } }));
      }
      if (await broken(chunks.length)) return;
      if (chunks.length > 0) res.write(bedrockEvent('contentBlockStop', { contentBlockIndex: 0 }));
      const calls = reply.toolCalls ?? [];
      for (const [i, call] of calls.entries()) {
        await sleep(delay);
        if (isGone()) return;
        const index = i + (chunks.length > 0 ? 1 : 0);
        res.write(
          bedrockEvent('contentBlockStart', {
            contentBlockIndex: index,
            start: { toolUse: { toolUseId: call.id, name: call.name } },
          }),
        );
        res.write(
          bedrockEvent('contentBlockDelta', {
            contentBlockIndex: index,
            delta: { toolUse: { input: JSON.stringify(call.input) } },
          }),
        );
        res.write(bedrockEvent('contentBlockStop', { contentBlockIndex: index }));
      }
      res.write(bedrockEvent('messageStop', { stopReason: calls.length > 0 ? 'tool_use' : 'end_turn' }));
      res.end(
        bedrockEvent('metadata', {
          usage: { inputTokens: 10, outputTokens: chunks.length, totalTokens: 10 + chunks.length },
          metrics: { latencyMs: 1 },
        }),
      );
    },
    // Bytes that do not frame as event-stream messages (their "length prelude" is text).
    fromUtf8('<html><body><h1>504 Gateway Time-out</h1></body></html>'),
    options,
  );
}
