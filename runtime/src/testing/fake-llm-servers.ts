// Fake LLM services on loopback, speaking the real wire formats (mocks of external services at
// the wire, not of our code): an OpenAI-compatible chat completions SSE server and a Bedrock
// ConverseStream endpoint (AWS event stream). By default both answer by echoing the last user
// message in small chunks, one chunk every `chunkDelayMs`; a `reply` script can answer anything,
// tool calls included (streamed as those APIs stream them). Both record what they saw. A `fault`
// breaks the answer as real servers and proxies do: silence before any byte, a stall after some
// chunks, an end with no finish reason, garbage bytes, or a 200 HTML page instead of a stream.
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createH2Server, type Http2ServerRequest, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export interface FakeLlmServer {
  url: string;
  /** Request bodies as parsed JSON, and request paths, in arrival order. */
  requests: { path: string; headers: IncomingMessage['headers'] | Http2ServerRequest['headers']; body: unknown }[];
  /** Resolves once a response ends before the whole answer was written (the client went away). */
  clientGone(): Promise<void>;
  /** Connections (HTTP/1.1 sockets or HTTP/2 sessions) opened so far. */
  connections(): number;
  /** Make the next request fail with this status and body. */
  failNext(status: number, body: unknown): void;
  /** Break the next answer so (instead of the `fault` option, for one request). */
  breakNext(fault: FakeFault): void;
  close(): Promise<void>;
}

/** One scripted answer: text (streamed in chunks), then tool calls (the model asks for tools). */
export interface FakeReply {
  text?: string;
  toolCalls?: { id: string; name: string; input: unknown }[];
}

/** The request as the fake saw it, in a provider-neutral form, for reply scripts. */
export interface FakeRequest {
  /** The whole request body as sent. */
  body: unknown;
  /** Text of the last user message (tool results excluded). */
  lastUserText: string;
  /** Results of the tool calls answered since the last assistant message (in order), as text. */
  toolResults: { id: string; text: string; error: boolean }[];
  /** Number of messages in the conversation sent (system prompt excluded). */
  messageCount: number;
}

/**
 * How an answer breaks, after `afterChunks` text chunks (default 2):
 * - `silent`: accepts the request and never answers (no status line, no byte);
 * - `stall`: stops writing, the connection left open (until the client goes away);
 * - `truncate`: ends the response there, with no finish reason / messageStop (nor [DONE]);
 * - `garbage`: writes bytes that are not the wire format (a line that is not SSE; for Bedrock,
 *   bytes that do not frame as event messages), then ends;
 * - `html`: answers 200 with an HTML error page instead of the stream, as a proxy does.
 */
export interface FakeFault {
  kind: 'silent' | 'stall' | 'truncate' | 'garbage' | 'html';
  afterChunks?: number;
}

export interface FakeLlmOptions {
  chunkDelayMs?: number;
  /** Break every answer so (see FakeFault). */
  fault?: FakeFault;
  chunkChars?: number;
  /** What to answer; default: echo the last user message. */
  reply?: (request: FakeRequest) => FakeReply;
  /** Fail a request with this status and body when it returns one (e.g. a context overflow). */
  failWhen?: (request: FakeRequest) => { status: number; body: unknown } | undefined;
  /** OpenAI: which chunk carries `role` (OpenAI sends it in the first; some proxies send none, or
   *  only with the finish_reason). Default 'first'. */
  role?: 'first' | 'none' | 'last';
}

// The part of node:http's and node:http2's response APIs the fakes use.
interface Response {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  on(event: 'close', listener: () => void): unknown;
}
type Answer = (
  res: Response,
  body: unknown,
  chunks: string[],
  reply: FakeReply,
  isGone: () => boolean,
  /** Called before each text chunk (with its index) and before the end (with chunks.length):
   *  true when the fault took over (the response ended or the client left): stop answering. */
  broken: (at: number) => Promise<boolean>,
) => Promise<void>;

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

async function startFake(
  read: (body: unknown) => FakeRequest,
  answer: Answer,
  /** What this wire format's garbage looks like. */
  garbage: string | Uint8Array,
  options: FakeLlmOptions & { http2?: boolean },
): Promise<FakeLlmServer> {
  const requests: FakeLlmServer['requests'] = [];
  let failure: { status: number; body: unknown } | undefined;
  let nextFault: FakeFault | undefined;
  const { promise: gone, resolve: goneResolve } = Promise.withResolvers<void>();
  const handler = async (req: IncomingMessage | Http2ServerRequest, res: Response) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    const refused = failure ?? options.failWhen?.(read(body));
    if (refused) {
      const { status, body: errorBody } = refused;
      failure = undefined;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(errorBody));
      return;
    }
    // Gone = the connection/stream closed before we ended the answer (node:http2's compat layer
    // emits 'finish' even for a reset stream, so our own flag is the reliable signal).
    let closed = false;
    let ended = false;
    const end = res.end.bind(res);
    res.end = (chunk?: string | Uint8Array) => ((ended = true), end(chunk));
    res.on('close', () => {
      if (!ended) {
        closed = true;
        goneResolve();
      }
    });
    const request = read(body);
    const reply = options.reply ? options.reply(request) : { text: request.lastUserText };
    const text = reply.text ?? '';
    const size = options.chunkChars ?? 4;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
    const fault = nextFault ?? options.fault;
    nextFault = undefined;
    const untilGone = async () => {
      while (!closed) await sleep(20);
    };
    if (fault?.kind === 'silent') return untilGone();
    if (fault?.kind === 'html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(HTML_PAGE);
    }
    const broken = async (at: number): Promise<boolean> => {
      if (!fault || at !== Math.min(fault.afterChunks ?? 2, chunks.length)) return false;
      if (fault.kind === 'stall') await untilGone();
      else res.end(fault.kind === 'garbage' ? garbage : undefined);
      return true;
    };
    await answer(res, body, chunks, reply, () => closed, broken);
  };
  // Bedrock's client speaks HTTP/2 (cleartext by prior knowledge for an http:// endpoint).
  const sessions = new Set<Http2Session>();
  let connections = 0;
  const server = options.http2
    ? createH2Server((req, res) => void handler(req, res)).on('session', (session) => {
        connections++;
        sessions.add(session);
        session.on('close', () => sessions.delete(session));
      })
    : createServer((req, res) => void handler(req, res)).on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    clientGone: () => gone,
    connections: () => connections,
    failNext: (status, body) => void (failure = { status, body }),
    breakNext: (fault) => void (nextFault = fault),
    close: () =>
      new Promise((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

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
