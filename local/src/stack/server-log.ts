// The Kokoro server's log as `npm start` shows it: the container writes one JSON object per line
// (pino, for CloudWatch); on a console that is noise, and a failed model load printed its whole
// stack trace. Here warnings and errors become one short line each ("kokoro server: ..."), and the
// error itself reaches the user once, in npm start's own message.
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'error' };

/** One line for a pino JSON record: its message, and the error's message (never its stack). */
export function formatServerLogLine(line: string): string | null {
  let record: { level?: unknown; msg?: unknown; err?: { message?: unknown } };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return line.trim() === '' ? null : `kokoro server: ${line.trim()}`;
  }
  const level = typeof record.level === 'number' ? (LEVELS[record.level] ?? 'note') : 'note';
  const err = typeof record.err?.message === 'string' ? `: ${record.err.message}` : '';
  return `kokoro server ${level}: ${String(record.msg ?? '')}${err}`;
}

export interface ServerLogOptions {
  /** Where the lines go (default: console.error). */
  write?: (line: string) => void;
  /**
   * Drops records while this returns true: during start-up, startServer rejects with the error
   * itself and npm start says it once, with the fix.
   */
  quietWhile?: () => boolean;
}

/** A pino logger for startServer: warnings and errors only, one readable line each. */
export function consoleServerLogger(options: ServerLogOptions = {}): Logger {
  const write = options.write ?? ((line: string) => console.error(line));
  let pending = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString('utf8');
      let newline;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (options.quietWhile?.()) continue;
        const text = formatServerLogLine(line);
        if (text !== null) write(text);
      }
      callback();
    },
  });
  return pino({ level: 'warn', base: null, timestamp: false }, sink);
}
