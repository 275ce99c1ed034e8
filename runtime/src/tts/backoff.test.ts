import { expect, test } from '@jest/globals';
import { Backoff, sleep } from './retry.ts';

test('full jitter: each delay is uniform up to a cap that doubles from baseMs to maxDelayMs', () => {
  let clock = 0;
  const draws = [0.5, 0.5, 0.5, 0.5, 0.5, 0.99];
  const backoff = new Backoff({
    budgetMs: 10_000,
    baseMs: 100,
    maxDelayMs: 1000,
    random: () => draws.shift()!,
    now: () => clock,
  });
  expect([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([
    50, 100, 200, 400, 500,
  ]);
  expect(backoff.next()).toBe(990); // capped at maxDelayMs
  expect(backoff.attempts).toBe(6);
});

test('the budget counts from the first failure: a delay that would leave it is refused (null)', () => {
  let clock = 1000;
  const backoff = new Backoff({ budgetMs: 500, baseMs: 200, maxDelayMs: 200, random: () => 0.999, now: () => clock });
  expect(backoff.next()).toBe(200);
  clock += 250;
  expect(backoff.next()).toBe(200); // 250 + 200 <= 500
  clock += 250;
  expect(backoff.next()).toBeNull(); // 500 + 200 > 500
  expect(backoff.elapsedMs).toBe(500);
  backoff.reset(); // a success: the next failure has the whole budget again
  expect(backoff.next()).toBe(200);
});

test('a budget of zero never retries', () => {
  const backoff = new Backoff({ budgetMs: 0, random: () => 0 });
  expect(backoff.next()).toBeNull();
  expect(backoff.attempts).toBe(0);
});

test('bad options are refused', () => {
  expect(() => new Backoff({ budgetMs: -1 })).toThrow(/retry budget must be >= 0 ms/);
  expect(() => new Backoff({ budgetMs: 1, baseMs: 500, maxDelayMs: 100 })).toThrow(/0 < baseMs \(500\) <= maxDelayMs/);
});

test('sleep ends early, rejecting, when its signal aborts', async () => {
  const abort = new AbortController();
  const slept = sleep(10_000, abort.signal);
  abort.abort(new Error('gone'));
  await expect(slept).rejects.toThrow('gone');
  await expect(sleep(1)).resolves.toBeUndefined();
});
