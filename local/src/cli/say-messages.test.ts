// What say tells the user: each bad field by its flag and the values it takes, a hint per kind of
// unreachable target, and where a relative --out goes.
import { describe, expect, test } from '@jest/globals';
import { turnRequestSchema } from '@kokoro-speech/protocol';
import { connectionHint, describeRequestIssues, isParseArgsError, outputPath } from './say-messages.ts';
import { parseArgs } from 'node:util';

describe('say messages', () => {
  test('request fields are named by their flag, with what they take and what was given', () => {
    const parsed = turnRequestSchema.safeParse({ prompt: 'hi', sample_rate: 44100, speed: 3, mode: 'fast' });
    expect(parsed.success).toBe(false);
    const text = describeRequestIssues(parsed.error!.issues, { sample_rate: '44100', speed: '3', mode: 'fast' });
    expect(text).toContain('--sample-rate must be one of 24000, 16000, 8000, not 44100');
    expect(text).toContain('--speed must be a number from 0.5 to 2, not 3');
    expect(text).toContain('--mode must be stream or batch, not fast');
  });

  test('--voice takes a blend; a malformed one is named with its position', () => {
    expect(turnRequestSchema.safeParse({ prompt: 'hi', voice: 'af_heart(2)+bf_emma(1)' }).success).toBe(true);
    const parsed = turnRequestSchema.safeParse({ prompt: 'hi', voice: 'af_heart(0)+bf_emma' });
    expect(describeRequestIssues(parsed.error!.issues, { voice: 'af_heart(0)+bf_emma' })).toBe(
      '--voice: voice blend "af_heart(0)+bf_emma": the weight of af_heart must be a positive number, got 0 at position 10',
    );
    const long = turnRequestSchema.safeParse({ prompt: 'hi', voice: 'v'.repeat(201) });
    expect(describeRequestIssues(long.error!.issues, { voice: 'v'.repeat(201) })).toMatch(
      /^--voice must be a voice id or a blend such as af_bella\(2\)\+af_sky\(1\) \(1 to 200 characters\), not v+$/,
    );
  });

  test("parseArgs' own errors are usage errors", () => {
    let error: unknown;
    try {
      parseArgs({ args: ['--nope'], options: {} });
    } catch (e) {
      error = e;
    }
    expect(isParseArgsError(error)).toBe(true);
    expect(isParseArgsError(new Error('other'))).toBe(false);
  });

  test('a refused connection suggests npm start; other network failures name their code', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(connectionHint(refused, 'http://127.0.0.1:3000')).toMatch(
      /^nothing answers at http:\/\/127\.0\.0\.1:3000 \(connection refused\)\. Is npm start running\?/,
    );
    const dualStack = Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]), {});
    expect(connectionHint(dualStack, 'http://localhost:3000')).toContain('Is npm start running?');
    expect(connectionHint(Object.assign(new Error('x'), { code: 'ENOTFOUND' }), 'http://nohost:1')).toContain(
      'cannot resolve the host of http://nohost:1',
    );
    expect(connectionHint(new Error('answered 500'), 'http://127.0.0.1:3000')).toBeNull();
  });

  test('a relative --out is taken from where the command was typed (INIT_CWD), an absolute one as is', () => {
    expect(outputPath('answer.wav', { INIT_CWD: '/home/me/work' })).toBe('/home/me/work/answer.wav');
    expect(outputPath('out/a.wav', { INIT_CWD: '/home/me' })).toBe('/home/me/out/a.wav');
    expect(outputPath('/tmp/a.wav', { INIT_CWD: '/home/me' })).toBe('/tmp/a.wav');
  });
});
