// A writable that keeps a logger's JSON lines (pino writes to a stream it is given synchronously),
// parsed and in order, for tests that assert on structured logs; `next` awaits a line to come.
import { Writable } from 'node:stream';

type LogLine = Record<string, unknown>;

export function logCapture(): {
  stream: Writable;
  lines: LogLine[];
  next: (match: (line: LogLine) => boolean) => Promise<LogLine>;
} {
  const lines: LogLine[] = [];
  const waiters: (() => void)[] = [];
  let partial = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      partial += chunk.toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const line of parts) if (line.trim()) lines.push(JSON.parse(line));
      for (const wake of waiters.splice(0)) wake();
      done();
    },
  });
  const next = async (match: (line: LogLine) => boolean): Promise<LogLine> => {
    for (;;) {
      const found = lines.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { stream, lines, next };
}
