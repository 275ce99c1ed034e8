// A caller that reads slowly or not at all, over a raw TCP socket: it POSTs a turn and reads the
// SSE answer at most `bytesPerSecond` (0: it stops reading after the response head), decoding the
// chunked body itself. What the agent sees is a real slow reader: its writes back up through TCP.
import { connect, type Socket } from 'node:net';
import type { PipelineEvent } from '../pipeline/turn.ts';

export interface SlowCaller {
  socket: Socket;
  /** Body bytes read so far (after chunked decoding). */
  readonly bodyBytes: number;
  /** The events read so far (audio data decoded from base64). */
  readonly events: PipelineEvent[];
  /** The HTTP status, once the head has been read. */
  readonly status: number | undefined;
  /** Reads at this rate from now on (0 stops reading). */
  setRate(bytesPerSecond: number): void;
  /** Resolves when the connection ends (the answer is complete, or the agent dropped us). */
  closed: Promise<{ complete: boolean }>;
  close(): void;
}

export function slowSseCaller(
  url: string,
  body: unknown,
  options: { bytesPerSecond: number; headers?: Record<string, string> },
): Promise<SlowCaller> {
  const target = new URL(url);
  const json = JSON.stringify(body);
  const socket = connect(Number(target.port), target.hostname);
  let rate = options.bytesPerSecond;
  let raw = Buffer.alloc(0);
  let head: string | undefined;
  let status: number | undefined;
  let bodyBytes = 0;
  let sse = '';
  let complete = false;
  const events: PipelineEvent[] = [];
  const { promise: headRead, resolve: onHead, reject: headFailed } = Promise.withResolvers<void>();
  const closed = new Promise<{ complete: boolean }>((resolve) => socket.once('close', () => resolve({ complete })));
  socket.on('error', (error) => headFailed(error));

  const parseSse = () => {
    for (let end = sse.indexOf('\n\n'); end >= 0; end = sse.indexOf('\n\n')) {
      const block = sse.slice(0, end);
      sse = sse.slice(end + 2);
      let name = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      const parsed = JSON.parse(data.join('\n'));
      events.push(
        name === 'audio'
          ? { type: 'audio', id: parsed.id, seq: parsed.seq, data: new Uint8Array(Buffer.from(parsed.data, 'base64')) }
          : ({ type: name, ...parsed } as PipelineEvent),
      );
    }
  };
  /** Decodes what of the chunked body is complete in `raw`. */
  const decode = () => {
    for (;;) {
      const lineEnd = raw.indexOf('\r\n');
      if (lineEnd < 0) return;
      const size = parseInt(raw.subarray(0, lineEnd).toString('latin1'), 16);
      if (raw.length < lineEnd + 2 + size + 2) return;
      const chunk = raw.subarray(lineEnd + 2, lineEnd + 2 + size);
      raw = raw.subarray(lineEnd + 2 + size + 2);
      if (size === 0) {
        complete = true;
        return;
      }
      bodyBytes += chunk.length;
      sse += chunk.toString('utf8');
      parseSse();
    }
  };
  socket.on('data', (data: Buffer) => {
    raw = Buffer.concat([raw, data]);
    if (head === undefined) {
      const at = raw.indexOf('\r\n\r\n');
      if (at < 0) return;
      head = raw.subarray(0, at).toString('latin1');
      status = Number(head.split(' ')[1]);
      raw = raw.subarray(at + 4);
      onHead();
    }
    decode();
    throttle(data.length);
  });
  // Reading at `rate`: after each chunk, pause for as long as that chunk takes at the rate.
  let timer: NodeJS.Timeout | undefined;
  const throttle = (bytes: number) => {
    if (head === undefined) return;
    socket.pause();
    clearTimeout(timer);
    if (rate > 0) timer = setTimeout(() => socket.resume(), Math.ceil((bytes / rate) * 1000));
  };
  socket.once('close', () => clearTimeout(timer));
  socket.write(
    `POST ${target.pathname === '/' ? '' : target.pathname}/invocations HTTP/1.1\r\nhost: ${target.host}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\n` +
      Object.entries(options.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('') +
      `\r\n${json}`,
  );
  return headRead.then(() => ({
    socket,
    get bodyBytes() {
      return bodyBytes;
    },
    events,
    get status() {
      return status;
    },
    setRate(bytesPerSecond: number) {
      rate = bytesPerSecond;
      clearTimeout(timer);
      if (rate > 0) socket.resume();
      else socket.pause();
    },
    closed,
    close: () => socket.destroy(),
  }));
}
