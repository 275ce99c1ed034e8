// The one logger factory of the project's servers: structured JSON lines (pino) with the service
// that wrote them and an ISO time, for CloudWatch Logs and its Logs Insights queries. Messages for a
// person at a terminal (usage, start-up banners) stay on the console.
import { pino, type Logger } from 'pino';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The services that log, one name each on every line (what a Logs Insights query filters on). */
export type Service = 'kokoro-server' | 'kokoro-agent' | 'sagemaker-local' | 'kokoro-web' | 'agentcore-stand-in';

/** A logger for `service` at `level`, writing to stdout (asynchronously) unless given a stream. */
export function createLogger(service: Service, level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
