import { describe, expect, test } from '@jest/globals';
import { KokoroError, UsageError, errorMessage } from './errors.ts';

class NotFound extends KokoroError<'not_found'> {
  constructor(what: string) {
    super('not_found', `${what} not found`, { status: 404 });
  }
}

describe('KokoroError', () => {
  test('carries code, message, status and retryable, and names its subclass', () => {
    const error = new NotFound('voice xx');
    expect(error).toBeInstanceOf(KokoroError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.message, error.status, error.retryable]).toEqual([
      'NotFound',
      'not_found',
      'voice xx not found',
      404,
      false,
    ]);
  });

  test('keeps a cause and a retryable flag; no status unless given', () => {
    const cause = new Error('socket hang up');
    const error = new KokoroError('connection_lost', 'the stream broke', { retryable: true, cause });
    expect(error.cause).toBe(cause);
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect('cause' in new KokoroError('x', 'y')).toBe(false);
  });

  test('UsageError is the one usage error', () => {
    const error = new UsageError('--port must be a number');
    expect([error.name, error.code, error.message]).toEqual(['UsageError', 'usage', '--port must be a number']);
  });
});

test('errorMessage reads anything thrown', () => {
  expect(errorMessage(new TypeError('bad'))).toBe('bad');
  expect(errorMessage('plain')).toBe('plain');
  expect(errorMessage(42)).toBe('42');
  expect(errorMessage(undefined)).toBe('undefined');
});
