// Streams one turn from an agent (the local web server, an agent server, or a deployed AgentCore
// runtime) over SSE or WebSocket, and yields its events in order with their arrival times.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createParser } from 'eventsource-parser';
import WebSocket from 'ws';
import { WsTurnFramer } from '@kokoro-speech/protocol/ws-framing';
import { turnEventSchema, voicesEventSchema, type TurnEvent, type TurnRequest } from '@kokoro-speech/protocol';
import { AgentCoreTarget, newRuntimeSessionId } from '../agentcore/agentcore.ts';
import { closeAgentSocket, openAgentSocket, withSlash } from './agent-socket.ts';

export type Transport = 'sse' | 'ws';

/** A turn event as the client sees it: audio carries decoded bytes, and every event its arrival time. */
export type ClientEvent = (Exclude<TurnEvent, { type: 'audio' }> | { type: 'audio'; id: string; data: Uint8Array }) & {
  /** Milliseconds since the request was sent. */
  at: number;
};

export interface TurnOptions {
  /** http(s) base URL (its /invocations and /ws are used) or a deployed runtime. */
  target: URL | AgentCoreTarget;
  transport: Transport;
  request: TurnRequest;
  signal?: AbortSignal;
  /** AgentCore runtime session id (a new one if absent); passed on by the web server's gateway too. */
  sessionId?: string;
}

export interface Turn {
  events: AsyncIterable<ClientEvent>;
  /** Bytes read from / written to the socket so far, headers and framing included (URL targets). */
  wire(): { read: number; written: number };
}

export function streamTurn(options: TurnOptions): Turn {
  const out = new Readable({ objectMode: true, read() {} });
  const started = performance.now();
  let socket: Socket | undefined;
  const emit = (event: TurnEvent | { type: 'audio'; id: string; data: Uint8Array }): void => {
    out.push({ ...event, at: performance.now() - started });
  };
  const fail = (err: unknown): void => {
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  };
  const run = options.transport === 'sse' ? runSse : runWs;
  run(options, emit, (s) => (socket = s)).then(() => out.push(null), fail);
  return {
    events: out,
    wire: () => ({ read: socket?.bytesRead ?? 0, written: socket?.bytesWritten ?? 0 }),
  };
}

type Emit = (event: TurnEvent | { type: 'audio'; id: string; data: Uint8Array }) => void;

export function parseEvent(type: string, data: unknown): TurnEvent {
  const parsed = turnEventSchema.safeParse({ ...(data as object), type });
  if (!parsed.success) throw new Error(`bad ${type} event from the agent: ${parsed.error.message}`);
  return parsed.data;
}

function emitParsed(event: TurnEvent, emit: Emit): void {
  if (event.type === 'audio') emit({ type: 'audio', id: event.id, data: Buffer.from(event.data, 'base64') });
  else emit(event);
}

async function runSse(options: TurnOptions, emit: Emit, onSocket: (s: Socket) => void): Promise<void> {
  const body = Buffer.from(JSON.stringify(options.request));
  const stream =
    options.target instanceof URL
      ? await postSse(
          new URL('invocations', withSlash(options.target)),
          body,
          options.sessionId,
          options.signal,
          onSocket,
        )
      : (await options.target.invoke(body, options.sessionId ?? newRuntimeSessionId(), options.signal)).body;
  let error: Error | undefined;
  const parser = createParser({
    onEvent(message) {
      if (error) return;
      try {
        emitParsed(parseEvent(message.event ?? 'message', JSON.parse(message.data)), emit);
      } catch (err) {
        error = err as Error;
      }
    },
  });
  for await (const chunk of stream) {
    parser.feed(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    if (error) {
      stream.destroy();
      throw error;
    }
  }
}

function postSse(
  url: URL,
  body: Buffer,
  sessionId: string | undefined,
  signal: AbortSignal | undefined,
  onSocket: (s: Socket) => void,
): Promise<Readable> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, {
      method: 'POST',
      agent: false, // one socket per turn, so its byte counts belong to this turn alone
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': body.byteLength,
        ...(sessionId === undefined ? {} : { 'x-session-id': sessionId }), // the local web server's gateway passes it on
      },
      ...(signal === undefined ? {} : { signal }),
    });
    req.on('socket', onSocket);
    req.on('error', reject);
    req.on('response', async (res) => {
      if (res.statusCode !== 200) {
        let text = '';
        for await (const c of res) text += c;
        reject(new Error(`${url} answered ${res.statusCode}: ${text.slice(0, 500)}`));
        return;
      }
      resolve(res);
    });
    req.end(body);
  });
}

async function runWs(options: TurnOptions, emit: Emit, onSocket: (s: Socket) => void): Promise<void> {
  const ws = await openAgentSocket(options.target, options.sessionId);
  ws.on('upgrade', (res) => onSocket(res.socket));
  const abort = (): void => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'cancel' }));
    ws.terminate();
  };
  options.signal?.addEventListener('abort', abort, { once: true });
  const framer = new WsTurnFramer();
  let started = false;
  try {
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ ...options.request, type: 'prompt' })));
      ws.on('error', reject);
      ws.on('close', (code, reason) => {
        if (options.signal?.aborted) reject(options.signal.reason);
        else reject(new Error(`agent WebSocket closed before the turn was done (${code} ${reason.toString()})`));
      });
      ws.on('message', (data, isBinary) => {
        try {
          if (isBinary) {
            const at = framer.audio();
            if (!at) throw new Error('audio frame arrived outside any sentence');
            emit({ type: 'audio', id: at.id, data: new Uint8Array(data as Buffer) });
            return;
          }
          const raw = JSON.parse((data as Buffer).toString('utf8')) as { type?: unknown };
          const event = framer.event(parseEvent(String(raw.type), raw));
          emitParsed(event, emit);
          if (event.type === 'start') started = true;
          // done ends a turn; an error before any start is a refused request (no done follows)
          if (event.type === 'done' || (event.type === 'error' && !started)) resolve();
        } catch (err) {
          reject(err);
        }
      });
    });
  } finally {
    closeAgentSocket(ws, options.signal, abort);
  }
}

/** The agent's voice list: POST {"voices": true} to its /invocations (a JSON answer, not SSE). */
export async function listVoices(
  target: URL | AgentCoreTarget,
  signal?: AbortSignal,
): Promise<{ voices: Extract<TurnEvent, { type: 'voices' }>['voices']; default: string }> {
  const body = Buffer.from(JSON.stringify({ voices: true }));
  let text = '';
  if (target instanceof URL) {
    const res = await fetch(new URL('invocations', withSlash(target)), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      ...(signal ? { signal } : {}),
    });
    text = await res.text();
    if (!res.ok) throw new Error(`${target} answered ${res.status} to the voice list: ${text.slice(0, 300)}`);
  } else {
    const answer = await target.invoke(body, newRuntimeSessionId(), signal);
    for await (const chunk of answer.body) text += Buffer.from(chunk as Uint8Array).toString('utf8');
  }
  const parsed = voicesEventSchema.omit({ type: true }).safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`not a voice list: ${text.slice(0, 300)}`);
  return parsed.data;
}
