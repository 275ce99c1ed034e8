// Test callers of the agent server: an SSE client (fetch + eventsource-parser) and a WebSocket
// client that records events and audio frames, both returning events in the pipeline's shape.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import WebSocket from 'ws';
import { WsTurnFramer } from '@kokoro-speech/protocol/ws-framing';
import type { PipelineEvent } from '../pipeline/turn.ts';

export interface SseTurn {
  status: number;
  events: PipelineEvent[];
}

/** POSTs a turn and reads its SSE events; `onEvent` may abort the request through `controller`. */
export async function sseTurn(
  url: string,
  body: unknown,
  options: {
    controller?: AbortController;
    onEvent?: (e: PipelineEvent) => void;
    /** Extra request headers (e.g. the AgentCore session header). */
    headers?: Record<string, string>;
  } = {},
): Promise<SseTurn> {
  const response = await fetch(`${url}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(options.controller ? { signal: options.controller.signal } : {}),
  });
  const events: PipelineEvent[] = [];
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      events: [{ type: 'error', ...((await response.json()) as { error: object }).error } as PipelineEvent],
    };
  }
  const stream = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  try {
    for await (const message of stream) {
      const data = JSON.parse(message.data);
      const event = (
        message.event === 'audio'
          ? { type: 'audio', id: data.id, seq: data.seq, data: new Uint8Array(Buffer.from(data.data, 'base64')) }
          : { type: message.event, ...data }
      ) as PipelineEvent;
      events.push(event);
      options.onEvent?.(event);
      // Hung up: what the stream had buffered beyond this point never reaches the caller.
      if (options.controller?.signal.aborted) break;
    }
  } catch (error) {
    if (!options.controller?.signal.aborted) throw error;
  }
  return { status: response.status, events };
}

/** A caller WebSocket: JSON text frames become events, binary frames become audio events of their
 *  sentence, read as the contract says (the protocol's WsTurnFramer). A stray frame is kept with
 *  id '' so that a test sees it. */
export class WsCaller {
  readonly ws: WebSocket;
  readonly events: PipelineEvent[] = [];
  #waiters: { predicate: (events: PipelineEvent[]) => boolean; resolve: (events: PipelineEvent[]) => void }[] = [];
  #framer = new WsTurnFramer();

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) {
        const at = this.#framer.audio() ?? { id: '', seq: 0 };
        this.events.push({ type: 'audio', ...at, data: new Uint8Array(data) });
      } else {
        this.events.push(this.#framer.event(JSON.parse(data.toString('utf8')) as PipelineEvent));
      }
      // Checked at each event, not once a batch of frames is in: ws hands on every frame of a TCP
      // read at once, and a waiter that looked later would see events past the one it waited for.
      const waiting = this.#waiters;
      this.#waiters = [];
      for (const w of waiting) {
        if (w.predicate(this.events)) w.resolve([...this.events]);
        else this.#waiters.push(w);
      }
    });
  }

  /** Opens a caller socket; `protocols`: the subprotocols it offers (e.g. the bearer pair). */
  static async connect(url: string, headers?: Record<string, string>, protocols?: string[]): Promise<WsCaller> {
    const ws = new WebSocket(url, protocols ?? [], headers ? { headers } : {});
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    return new WsCaller(ws);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves once `predicate` holds for the events so far, with those events (later ones may
   *  have arrived by the time the caller runs: `events` keeps growing). */
  until(predicate: (events: PipelineEvent[]) => boolean): Promise<PipelineEvent[]> {
    if (predicate(this.events)) return Promise.resolve([...this.events]);
    return new Promise((resolve) => this.#waiters.push({ predicate, resolve }));
  }

  /** Events of the n-th turn (0-based), each ending with `done`. */
  turn(n: number): PipelineEvent[] {
    const out: PipelineEvent[][] = [[]];
    for (const e of this.events) {
      out.at(-1)!.push(e);
      if (e.type === 'done') out.push([]);
    }
    return out[n] ?? [];
  }

  close(): void {
    this.ws.close();
  }
}
