// Server-Sent Events writer over a node:http response. Hand-written (no library needed for a
// dozen lines) with the guards that matter: event names can never break framing (CR/LF refused),
// multi-line data becomes several `data:` lines, writes after close are ignored.
import type { ServerResponse } from 'node:http';

export class SseWriter {
  readonly #res: ServerResponse;
  #closed = false;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Proxies (nginx and friends) must not buffer audio.
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', () => (this.#closed = true));
  }

  get closed(): boolean {
    return this.#closed || this.#res.destroyed;
  }

  /** Writes one event; returns false when the caller is gone (nothing was written). `onWritten`
   *  is called once the operating system has taken it (flow control: caller-flow.ts). */
  event(name: string, data: string, onWritten?: () => void): boolean {
    if (/[\r\n]/.test(name) || name === '')
      throw new TypeError(`SSE event name must be one non-empty line, got ${JSON.stringify(name)}`);
    if (this.closed) return false;
    const lines = data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}\n`)
      .join('');
    this.#res.write(`event: ${name}\n${lines}\n`, onWritten);
    return true;
  }

  /** Ends the stream; safe to call more than once. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#res.end();
  }
}
