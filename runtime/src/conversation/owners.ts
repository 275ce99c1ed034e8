// Sessions belong to users: each session id is bound to the caller that first used it (a signed-in
// user's key, or no user: an anonymous caller), and anyone else presenting that id is refused
// (403 `forbidden`). The binding lives with the live conversation and, with a session store, in an
// owner record beside the conversations (`owners/<hash of the id>.json`), so that it holds across
// an agent restart (AgentCore re-creates an evicted session's microVM from the store). Sessions
// stored before users existed (anonymous, no record) stay readable where they are, and count as
// anonymous. Why and what is inferred: docs/design/identity-and-sessions.md.
import { KokoroError } from '@kokoro-speech/protocol/errors';
import type { ResilientStorage } from './storage.ts';
import { storageKeyOf } from './session-id.ts';

/** The session id is bound to another caller. */
export class SessionForbiddenError extends KokoroError<'forbidden'> {
  constructor() {
    // The message names nobody: neither whose the session is nor that it has a history.
    super('forbidden', 'this session belongs to another caller; start a new session id', { status: 403 });
  }
}

/** Where a session's owner record lives in the store. */
export const ownerRecordKey = (sessionId: string) => `owners/${storageKeyOf(sessionId)}.json`;

/** Where Strands' session manager keeps an anonymous session's snapshots (its 'session' namespace). */
const anonymousPrefix = (sessionId: string) => `session/${storageKeyOf(sessionId)}/`;

/** What the store says of a session: a user's, anonymous, nobody's yet, or unknown (no answer). */
type Stored = { kind: 'user'; key: string } | { kind: 'anonymous' } | { kind: 'none' } | { kind: 'unknown' };

export interface OwnerCheck {
  /** The store has no owner for it: the caller should record itself once it uses the session. */
  unclaimed: boolean;
}

export class SessionOwners {
  readonly #store: ResilientStorage | undefined;
  /** Owner records being written (a read waits for them, so that a fresh binding is seen). */
  #writes: Promise<void> = Promise.resolve();

  constructor(store: ResilientStorage | undefined) {
    this.#store = store;
  }

  /**
   * Throws SessionForbiddenError when `user` (a user key; undefined: anonymous) may not use session
   * `id`: the live conversation's owner (`live`, when there is one) or the store's names another.
   * A store that does not answer refuses nobody (nothing of another user's is reachable anyway:
   * their history is stored under their own key) and records nobody.
   */
  async check(id: string, user: string | undefined, live?: { owner: string | undefined }): Promise<OwnerCheck> {
    if (live) {
      if (live.owner !== user) throw new SessionForbiddenError();
      return { unclaimed: false };
    }
    if (!this.#store) return { unclaimed: false };
    const stored = await this.#lookup(id, user !== undefined);
    if (stored.kind === 'user' && stored.key !== user) throw new SessionForbiddenError();
    if (stored.kind === 'anonymous' && user !== undefined) throw new SessionForbiddenError();
    return { unclaimed: stored.kind === 'none' && user !== undefined };
  }

  /** Records `user` as the owner of session `id` (after a check said it was unclaimed). */
  record(id: string, user: string): void {
    const store = this.#store;
    if (!store) return;
    const data = new TextEncoder().encode(JSON.stringify({ version: 1, user }));
    this.#writes = this.#writes.then(() => store.write(ownerRecordKey(id), data));
  }

  /** Resolves once the records asked for so far are written (or given up). */
  flush(): Promise<void> {
    return this.#writes;
  }

  /** The store's owner of `id`; the legacy look-up (anonymous snapshots, no record) only when it matters. */
  async #lookup(id: string, forUser: boolean): Promise<Stored> {
    const store = this.#store!;
    await this.#writes;
    const record = await store.readChecked(ownerRecordKey(id));
    if (record === undefined) return { kind: 'unknown' };
    if (record !== null) {
      try {
        const parsed = JSON.parse(new TextDecoder().decode(record)) as { user?: unknown };
        if (typeof parsed.user === 'string' && /^[0-9a-f]{64}$/.test(parsed.user))
          return { kind: 'user', key: parsed.user };
      } catch {
        // fall through: a record that does not parse binds nobody, and is not overwritten
      }
      return { kind: 'unknown' };
    }
    if (!forUser) return { kind: 'none' };
    const anonymous = await store.listChecked(anonymousPrefix(id));
    if (anonymous === undefined) return { kind: 'unknown' };
    return anonymous.length > 0 ? { kind: 'anonymous' } : { kind: 'none' };
  }
}
