// Session ids: validation (the turn contract's rule, AgentCore's) and the key a session is stored
// under: a SHA-256 of the id, because Strands' session manager takes only lower-case ids and the
// ids themselves (which callers may treat as secrets) need not appear in bucket keys or logs.
import { createHash, randomUUID } from 'node:crypto';
import { SESSION_ID_PATTERN } from '@kokoro-speech/protocol';

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}

export function storageKeyOf(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

/** A new conforming id (AgentCore wants at least 33 characters). */
export function newSessionId(prefix = 'kokoro'): string {
  return `${prefix}-${randomUUID()}`;
}
