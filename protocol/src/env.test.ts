// The one way environment variables are read: blank is unset, ranges are checked, and every bad
// variable is named, with what it takes and what it got, in one ConfigError.
import { describe, expect, test } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, envEnum, envInt, envNumber, optional, parseEnv, withDefault } from './env.ts';
import { KokoroError } from './errors.ts';

const schema = z.object({
  PORT: withDefault(envInt(0, 65535), 8080),
  WORKERS: optional(envInt(1)),
  SHARE: optional(envNumber(0, 1, 'above')),
  DELAY: optional(envNumber(0)),
  MODE: withDefault(envEnum(['on', 'off']), 'on'),
});

const problemsOf = (env: Record<string, string>, names?: Record<string, string>): readonly string[] => {
  try {
    parseEnv(schema, env, names);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toBeInstanceOf(KokoroError);
    expect((error as ConfigError).code).toBe('config');
    expect((error as ConfigError).message).toBe(`invalid configuration: ${(error as ConfigError).problems.join('; ')}`);
    return (error as ConfigError).problems;
  }
  throw new Error('parsed');
};

describe('parseEnv', () => {
  test('absent or blank is unset (the default applies); numbers are read as written', () => {
    expect(parseEnv(schema, {})).toEqual({ PORT: 8080, MODE: 'on' });
    expect(parseEnv(schema, { PORT: '', WORKERS: '', MODE: '' })).toEqual({ PORT: 8080, MODE: 'on' });
    expect(parseEnv(schema, { PORT: '0', WORKERS: '1e3', SHARE: '1', DELAY: '0.25', MODE: 'off' })).toEqual({
      PORT: 0,
      WORKERS: 1000,
      SHARE: 1,
      DELAY: 0.25,
      MODE: 'off',
    });
  });

  test('every bad variable at once, each with what it takes and what it got', () => {
    expect(problemsOf({ PORT: 'eighty', WORKERS: '2.5', SHARE: '0', DELAY: '-1', MODE: 'maybe' })).toEqual([
      'PORT: must be a whole number from 0 to 65535, not "eighty"',
      'WORKERS: must be a whole number of at least 1, not "2.5"',
      'SHARE: must be a number above 0 and at most 1, not "0"',
      'DELAY: must be a number of at least 0, not "-1"',
      'MODE: must be one of on, off, not "maybe"',
    ]);
    expect(problemsOf({ PORT: '65536' })).toEqual(['PORT: must be a whole number from 0 to 65535, not "65536"']);
  });

  test('a command names the flag that set a variable; a long value is shortened', () => {
    expect(problemsOf({ PORT: '-1' }, { PORT: '--port' })).toEqual([
      '--port: must be a whole number from 0 to 65535, not "-1"',
    ]);
    const [problem] = problemsOf({ MODE: 'x'.repeat(200) });
    expect(problem).toBe(`MODE: must be one of on, off, not "${'x'.repeat(80)}..."`);
  });

  test('ConfigError keeps a plain message as its one problem', () => {
    expect(new ConfigError('KOKORO_URL and SAGEMAKER_ENDPOINT_NAME are both set').problems).toEqual([
      'KOKORO_URL and SAGEMAKER_ENDPOINT_NAME are both set',
    ]);
  });
});
