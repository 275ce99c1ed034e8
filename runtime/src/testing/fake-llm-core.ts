// What both fake LLM services (fake-llm-servers.ts) share: the loopback server (HTTP/1.1 or
// cleartext HTTP/2), the record of requests, refusals, and the faults that break an answer the
// same way whatever the wire format; each format supplies how it reads a request and streams.
import { createServer, type IncomingMessage } from 'node:http';
import { createServer as createH2Server, type Http2ServerRequest, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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
 * How an answer breaks, after `afterChunks` text chunks (default 2; more than the answer has, such
 * as Infinity: after its last chunk, before its end):
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
export type Answer = (
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

export async function startFake(
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
