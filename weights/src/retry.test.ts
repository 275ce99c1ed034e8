import { describe, expect, test } from '@jest/globals';
import { HubHttpError, WeightsError, isRetryable } from './errors.ts';
import { backoffDelay, parseRetryAfter, withRetry } from './retry.ts';

describe('parseRetryAfter', () => {
  test('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
  });
  test('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  test('uses Retry-After when the error carries it, capped by maxDelayMs', () => {
    expect(backoffDelay(1, new HubHttpError(429, 'u', '', 1500))).toBe(1500);
    expect(backoffDelay(1, new HubHttpError(429, 'u', '', 90_000), { maxDelayMs: 10_000 })).toBe(10_000);
  });
  test('otherwise stays under an exponentially growing ceiling', () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(3, new Error('x'), { baseDelayMs: 100 })).toBeLessThan(400);
    }
  });
});

describe('withRetry', () => {
  const fast = { baseDelayMs: 1 };
  test('retries 429 and 5xx until success', async () => {
    const errors = [new HubHttpError(429, 'u', '', 0), new HubHttpError(503, 'u', '')];
    let calls = 0;
    const result = await withRetry(async () => {
      calls++;
      const error = errors.shift();
      if (error) throw error;
      return 'ok';
    }, fast);
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });
  test('does not retry a client error', async () => {
    let calls = 0;
    const run = withRetry(async () => {
      calls++;
      throw new HubHttpError(404, 'u', 'not found');
    }, fast);
    await expect(run).rejects.toMatchObject({ name: 'HubRequestFailed', status: 404 });
    expect(calls).toBe(1);
  });
  test('gives up after the last attempt with the last error', async () => {
    let calls = 0;
    const run = withRetry(
      async () => {
        calls++;
        throw new HubHttpError(500, 'u', `try ${calls}`);
      },
      { ...fast, attempts: 3 },
    );
    await expect(run).rejects.toThrow('try 3');
    expect(calls).toBe(3);
  });
  test('classifies errors by the table in errors.ts', () => {
    expect(isRetryable(new WeightsError('DownloadInterrupted', 'x', true))).toBe(true);
    expect(isRetryable(new WeightsError('DigestMismatch', 'x', false))).toBe(false);
    expect(isRetryable(new TypeError('fetch failed'))).toBe(true);
    expect(isRetryable(new RangeError('nope'))).toBe(false);
  });
});
