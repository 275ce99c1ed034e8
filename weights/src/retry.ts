// Retry with exponential backoff and full jitter, honouring the server's Retry-After.
// Written here rather than taken from a library because the delay must come from the failed
// response (Retry-After on 429/503) and the retry decision from our error table (errors.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { isRetryable } from './errors.ts';

export interface RetryOptions {
  /** Total attempts including the first. Default 5. */
  attempts?: number;
  /** First backoff ceiling in ms, doubled each attempt. Default 500. */
  baseDelayMs?: number;
  /** Largest wait in ms, Retry-After included. Default 20000. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Which errors to retry. Default: those errors.ts marks retryable. */
  retryOn?: (error: unknown) => boolean;
  /** Called before each wait (for logs). */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

/** Parses an HTTP Retry-After value (delta-seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before attempt `attempt + 1`: Retry-After when given, else a jittered exponential delay. */
export function backoffDelay(attempt: number, error: unknown, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 20_000;
  const retryAfter = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof retryAfter === 'number') return Math.min(max, retryAfter);
  return Math.random() * Math.min(max, base * 2 ** (attempt - 1));
}

/** Runs `fn` until it succeeds, fails with a non-retryable error, or runs out of attempts. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= attempts || !(options.retryOn ?? isRetryable)(error) || options.signal?.aborted) throw error;
      const delay = backoffDelay(attempt, error, options);
      options.onRetry?.(error, attempt, delay);
      await sleep(delay, undefined, { signal: options.signal });
    }
  }
}
