// Session ids: validation (the turn contract's rule, AgentCore's) and the key a session is stored
// under: a SHA-256 of the id, because Strands' session manager takes only lower-case ids and the
// ids themselves (which callers may treat as secrets) need not appear in bucket keys or logs. A
// signed-in user's session is stored under the user's key (a hash of issuer and subject) and the
// id's hash, so that one user's store keys are never another's (docs/design/identity-and-sessions.md).
import { createHash, randomUUID } from 'node:crypto';
import { SESSION_ID_PATTERN } from '@kokoro-speech/protocol';

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}

/** The store key of a session: the id's hash, behind the user's key for a signed-in user's session. */
export function storageKeyOf(sessionId: string, userKey?: string): string {
  const id = createHash('sha256').update(sessionId).digest('hex');
  return userKey === undefined ? id : `${userKey}-${id}`;
}

/** A new conforming id (AgentCore wants at least 33 characters). */
export function newSessionId(prefix = 'kokoro'): string {
  return `${prefix}-${randomUUID()}`;
}
