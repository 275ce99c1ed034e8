// The Kokoro server's JSON log on npm start's console: one short line per warning or error, the
// error's message and never its stack, and nothing while start-up is still under way.
import { describe, expect, test } from '@jest/globals';
import { consoleServerLogger, formatServerLogLine } from './server-log.ts';

describe('the Kokoro server log on the console', () => {
  test('a pino record becomes one line: level, message, the error message without its stack', () => {
    const record = JSON.stringify({
      level: 60,
      msg: 'model failed to load',
      err: {
        type: 'SyntaxError',
        message: 'Unexpected token',
        stack: 'SyntaxError: Unexpected token\n    at x (y.js:1:2)',
      },
    });
    expect(formatServerLogLine(record)).toBe('kokoro server error: model failed to load: Unexpected token');
    expect(formatServerLogLine(JSON.stringify({ level: 40, msg: 'session dropped' }))).toBe(
      'kokoro server warning: session dropped',
    );
    expect(formatServerLogLine('not json')).toBe('kokoro server: not json');
    expect(formatServerLogLine('')).toBeNull();
  });

  test('the logger writes warnings and errors only, and is quiet while told to be', () => {
    const lines: string[] = [];
    let quiet = true;
    const log = consoleServerLogger({ write: (line) => lines.push(line), quietWhile: () => quiet });
    log.fatal({ err: new Error('no model here') }, 'model failed to load');
    quiet = false;
    log.info('listening'); // below warn: not shown
    log.warn({ session: 's1' }, 'client too slow, session dropped');
    log.error({ err: new Error('boom') }, 'model run failed');
    // pino writes to a stream it is given synchronously: the lines are there already.
    expect(lines).toEqual([
      'kokoro server warning: client too slow, session dropped',
      'kokoro server error: model run failed: boom',
    ]);
  });
});
