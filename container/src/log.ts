// Structured JSON logs (pino): one line per request or session, start-up stages with durations.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service: 'kokoro-server' }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
