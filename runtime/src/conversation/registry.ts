// The live conversations of this process, by session id: created on a session's first turn,
// evicted when idle longer than `idleMs` (default: AgentCore's idle session timeout, 900 s), and
// at most `maxSessions` at once: a new one evicts the least recently active idle one (a persisted
// conversation is restored from its store when it comes back).
import type { Conversation } from './conversation.ts';
import { KokoroError } from '@kokoro-speech/protocol/errors';

export interface SessionLimits {
  idleMs: number;
  maxSessions: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 900_000, maxSessions: 256 };

/** Every live conversation is busy: none can make room for a new one. */
export class SessionLimitError extends KokoroError<'busy'> {
  constructor(message: string) {
    super('busy', message, { status: 503, retryable: true });
  }
}

export class ConversationRegistry {
  readonly #live = new Map<string, Conversation>();
  readonly #limits: SessionLimits;
  readonly #create: (id: string, persist: boolean, owner: string | undefined) => Conversation;
  readonly #sweeper: NodeJS.Timeout;
  evicted = 0;

  constructor(
    limits: SessionLimits,
    create: (id: string, persist: boolean, owner: string | undefined) => Conversation,
  ) {
    this.#limits = limits;
    this.#create = create;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(limits.idleMs, 60_000));
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#live.size;
  }

  has(id: string): boolean {
    return this.#live.has(id);
  }

  /** The live conversation of `id`, if any. */
  peek(id: string): Conversation | undefined {
    return this.#live.get(id);
  }

  /** The conversation of `id`, created if it is not live (for `owner`: a user key, or undefined:
   *  anonymous; whether that owner may use it is checked before, owners.ts). Throws
   *  SessionLimitError when full. */
  get(id: string, options: { persist?: boolean; owner?: string | undefined } = {}): Conversation {
    const live = this.#live.get(id);
    if (live) return live;
    if (this.#live.size >= this.#limits.maxSessions) {
      let oldest: Conversation | undefined;
      for (const c of this.#live.values()) if (!c.busy && (!oldest || c.lastActive < oldest.lastActive)) oldest = c;
      if (!oldest) throw new SessionLimitError(`all ${this.#limits.maxSessions} live sessions are busy; retry shortly`);
      this.#evict(oldest);
    }
    const created = this.#create(id, options.persist ?? true, options.owner);
    this.#live.set(id, created);
    return created;
  }

  /** Drops a conversation now (a connection's private one when its socket closes). */
  delete(id: string): void {
    const c = this.#live.get(id);
    if (c) this.#evict(c);
  }

  #evict(c: Conversation): void {
    this.#live.delete(c.id);
    this.evicted++;
  }

  /** Evicts the conversations idle longer than the limit. */
  sweep(now = Date.now()): void {
    for (const c of this.#live.values()) if (!c.busy && now - c.lastActive > this.#limits.idleMs) this.#evict(c);
  }

  /** Stops the sweeper, cancels running turns and waits for pending saves. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const c of this.#live.values()) c.cancel(new Error('server shutting down'));
    await Promise.all([...this.#live.values()].map((c) => c.flush()));
  }
}
