// A logger whose JSON lines a test reads back: what a server logged, parsed, in order.
import { PassThrough } from 'node:stream';
import { createLogger, type Logger, type Service } from '../server/logger.ts';

export interface LogSink {
  readonly logger: Logger;
  /** Every line written so far, parsed (pino writes synchronously to a stream it is given). */
  lines(): Record<string, unknown>[];
}

export function logSink(service: Service, level = 'debug'): LogSink {
  const stream = new PassThrough();
  const written: Record<string, unknown>[] = [];
  let partial = '';
  stream.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) if (part) written.push(JSON.parse(part) as Record<string, unknown>);
  });
  return { logger: createLogger(service, level, stream), lines: () => [...written] };
}
