// One conversation (session): a Strands agent holding its messages, turns run one at a time (a new
// turn barges in: the running one is cancelled, then the new one runs), the history cut at what
// the caller heard when a turn is interrupted (heard.ts), and persistence through Strands' session
// manager (restored when the agent first runs, saved after each turn's history is final).
import { SessionManager, type Agent, type Message, type Storage } from '@strands-agents/sdk';
import type { Logger } from '@kokoro-speech/protocol/server';
import type { LlmFailureSource } from '../llm/types.ts';
import type { AnswerSource, TurnResult } from '../pipeline/types.ts';
import { createAgent, type AgentRecipe } from './agents.ts';
import { agentAnswer } from './answer.ts';
import { deliveredMs, heardPlace, rebuildTurn, replaceTurn } from './heard.ts';
import { storageKeyOf } from './session-id.ts';
import { Transcript } from './transcript.ts';
import type { LlmTimeouts } from '../llm/model-watch.ts';
import type { SpokenLanguage } from '@kokoro-speech/protocol';
import { systemPromptFor } from '../llm/language-prompt.ts';
import { PreemptiveAnswer } from './preemptive-answer.ts';

export interface ConversationDeps {
  recipe: AgentRecipe;
  /** The LLM provider's name (and request), for error messages. */
  provider: LlmFailureSource;
  /** Persist the conversation here (absent: memory only). */
  storage?: Storage;
  /** The signed-in user it belongs to (their key: server/identity.ts); absent: an anonymous caller's. */
  owner?: string;
  /** The LLM's first-token and idle timeouts (llm/model-watch.ts). */
  llmTimeouts?: LlmTimeouts;
  log: Logger;
}

/** One turn of a conversation, kept so that a playback report arriving later can cut it. */
export class TurnRecord {
  readonly sessionId: string;
  readonly transcript: Transcript;
  result: TurnResult | undefined;
  /** A playback report that came while the turn ran. */
  reportedMs: number | undefined;
  /** The turn's messages as the agent stored them, and the ids standing for the turn now. */
  original: Message[] = [];
  ids: string[] = [];
  /** The last cut applied, for tests and logs: null while the turn stands as the agent stored it. */
  cut: { played_ms: number; stored: string } | null = null;
  readonly #conversation: Conversation;

  constructor(conversation: Conversation, transcript = new Transcript()) {
    this.#conversation = conversation;
    this.sessionId = conversation.id;
    this.transcript = transcript;
  }

  /** The caller played `ms` of this turn's audio (from its first sample). */
  report(ms: number): void {
    if (this.result === undefined) this.reportedMs = ms;
    else this.#conversation.cutTurn(this, ms);
  }
}

export class Conversation {
  readonly id: string;
  readonly persisted: boolean;
  /** The user it belongs to (undefined: anonymous); nobody else may use it (owners.ts). */
  readonly owner: string | undefined;
  lastActive = Date.now();
  readonly #deps: ConversationDeps;
  #agent: Promise<Agent> | undefined;
  /** The agent once it is ready (every finished turn had it). */
  #resolved: Agent | undefined;
  #sessionManager: SessionManager | undefined;
  /** Settles when the last turn queued so far is over. */
  #tail: Promise<void> = Promise.resolve();
  /** The newest turn, running or waiting for the one before it. */
  #newest: AbortController | undefined;
  #active = 0;
  #last: TurnRecord | undefined;
  #saving: Promise<void> = Promise.resolve();
  /** An answer started before its turn (preemptive-answer.ts), until a turn adopts or discards it. */
  #preempted: PreemptiveAnswer | undefined;

  constructor(id: string, deps: ConversationDeps) {
    this.id = id;
    this.#deps = deps;
    this.persisted = deps.storage !== undefined;
    this.owner = deps.owner;
    if (deps.storage)
      this.#sessionManager = new SessionManager({
        sessionId: storageKeyOf(id, deps.owner),
        storage: deps.storage,
        saveLatestOn: 'trigger', // saved by us once a turn's history is final (cut included)
      });
  }

  /** A turn is running or waiting. */
  get busy(): boolean {
    return this.#active > 0;
  }

  /** The most recent finished turn. */
  get lastTurn(): TurnRecord | undefined {
    return this.#last;
  }

  /** The agent's messages (for tests and the benchmark). */
  async messages(): Promise<readonly Message[]> {
    return (await this.#ready()).messages;
  }

  #ready(): Promise<Agent> {
    this.#agent ??= (async () => {
      const agent = await createAgent(this.#deps.recipe, this.#sessionManager);
      await agent.initialize(); // restores a persisted conversation (Strands' session manager)
      // A restored snapshot carries the system prompt it was saved with: the configured one wins.
      if (this.#deps.recipe.systemPrompt) agent.systemPrompt = this.#deps.recipe.systemPrompt;
      this.#resolved = agent;
      return agent;
    })();
    this.#agent.catch(() => (this.#agent = undefined)); // e.g. an MCP server down: try again next turn
    return this.#agent;
  }

  /**
   * Starts answering `prompt` before its turn (preemptive generation), held until a turn with the
   * same prompt and language adopts it; undefined while a turn runs or waits. One held at a time:
   * an earlier one is discarded first (its history restored before this one reads it).
   */
  preempt(request: { prompt: string; language?: SpokenLanguage }): PreemptiveAnswer | undefined {
    if (this.#active > 0) return undefined;
    const earlier = this.#preempted;
    const ready = () => this.#ready();
    const { provider, llmTimeouts } = this.#deps;
    const language = request.language ?? 'en';
    const systemPrompt = systemPromptFor(this.#deps.recipe.systemPrompt, language);
    let before: Message[] | undefined;
    const answer = new PreemptiveAnswer(
      request.prompt,
      language,
      async function* (signal, transcript) {
        await earlier?.discard();
        signal.throwIfAborted();
        const agent = await ready();
        before = agent.messages.slice();
        if (systemPrompt !== undefined) agent.systemPrompt = systemPrompt;
        else delete agent.systemPrompt;
        yield* agentAnswer(agent, request.prompt, signal, provider, transcript, llmTimeouts);
      },
      () => {
        if (before && this.#resolved) this.#resolved.messages.splice(0, Infinity, ...before);
      },
    );
    this.#preempted = answer;
    return answer;
  }

  /**
   * Runs one turn of this conversation: cancels the running turn (barge-in) and waits for it,
   * applies the caller's report on the previous turn, then `run`s this one with the session's
   * agent as its answer source. `onRecord` gets the turn's record before it runs (for a cancel
   * that reports playback). Resolves with the record once the turn is over and its history final.
   */
  async turn(
    request: { prompt: string; previousPlayedMs?: number; language?: SpokenLanguage },
    signal: AbortSignal,
    run: (answer: AnswerSource, signal: AbortSignal) => Promise<TurnResult>,
    onRecord?: (record: TurnRecord) => void,
  ): Promise<TurnRecord> {
    this.#active++;
    this.lastActive = Date.now();
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    this.#newest?.abort(new Error('replaced by a newer turn of the same session'));
    this.#newest = controller;
    const previous = this.#tail;
    const { promise: over, resolve: finish } = Promise.withResolvers<void>();
    this.#tail = over;
    try {
      await previous;
      const held = this.#preempted;
      this.#preempted = undefined;
      // Adopted only for the words it started on, and with no playback report to apply first.
      const fits = held?.prompt === request.prompt && held.language === (request.language ?? 'en');
      const adopted = fits && held.usable && request.previousPlayedMs === undefined ? held : undefined;
      if (held && !adopted) await held.discard();
      const record = new TurnRecord(this, adopted?.transcript);
      onRecord?.(record);
      if (request.previousPlayedMs !== undefined) this.#last?.report(request.previousPlayedMs);
      // The agent is made inside the answer: a failure to make it (an MCP server down) is then an
      // error event of this turn, not a dead request.
      const ready = () => this.#ready();
      const { provider, llmTimeouts } = this.#deps;
      // The session's language is each turn's (its voice's): the system prompt says which.
      const systemPrompt = systemPromptFor(this.#deps.recipe.systemPrompt, request.language ?? 'en');
      const answer: AnswerSource =
        adopted?.adopt() ??
        async function* (s) {
          const agent = await ready();
          // (a restored or earlier turn's prompt is replaced; none configured and English: none)
          if (systemPrompt !== undefined) agent.systemPrompt = systemPrompt;
          else delete agent.systemPrompt;
          yield* agentAnswer(agent, request.prompt, s, provider, record.transcript, llmTimeouts);
        };
      const result = await run(answer, controller.signal);
      if (this.#resolved) this.#settle(this.#resolved, record, result);
      else record.result = result;
      this.#last = record;
      this.#save();
      return record;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (this.#newest === controller) this.#newest = undefined;
      this.#active--;
      this.lastActive = Date.now();
      finish();
    }
  }

  /** The turn is over: keep what the agent stored, or cut it at what the caller heard. */
  #settle(agent: Agent, record: TurnRecord, result: TurnResult): void {
    record.result = result;
    const ids = new Set(record.transcript.addedIds);
    record.original = agent.messages.filter((m) => ids.has(m.trackingId));
    record.ids = record.transcript.addedIds.slice();
    if (result.outcome === 'cancelled') {
      // Without a report: the audio delivered, bounded by the wall clock since the first of it.
      const since = result.firstAudioAt === null ? 0 : result.endedAt - result.firstAudioAt;
      this.#cut(agent, record, record.reportedMs ?? Math.min(deliveredMs(result.sentences), since), 'interrupted');
    } else if (result.outcome === 'failed') {
      // The caller hears what was delivered; the history must not end on the open user turn.
      this.#cut(agent, record, record.reportedMs ?? deliveredMs(result.sentences), 'failed');
    } else if (record.reportedMs !== undefined) {
      this.#cut(agent, record, record.reportedMs, 'interrupted');
    }
  }

  /** A playback report for a finished turn of this conversation (e.g. a cancel after `done`). */
  cutTurn(record: TurnRecord, playedMs: number): void {
    if (!this.#resolved) return; // the turn never reached its agent: nothing was stored
    this.#cut(this.#resolved, record, playedMs, 'interrupted');
    this.#save();
  }

  #cut(agent: Agent, record: TurnRecord, playedMs: number, reason: 'interrupted' | 'failed'): void {
    const result = record.result!;
    const place = heardPlace(result.sentences, playedMs);
    // Heard to the end of a completed answer: the turn stands as the agent stored it.
    const messages =
      place.all && result.outcome === 'completed'
        ? record.original
        : rebuildTurn(record.transcript, place, { played_ms: playedMs, reason });
    const ids = replaceTurn(agent.messages, record.transcript.promptId, record.ids, messages);
    if (ids === undefined) return; // the turn left the conversation window already
    record.ids = ids;
    record.cut =
      messages === record.original
        ? null
        : {
            played_ms: playedMs,
            stored: messages
              .filter((m) => m.role === 'assistant')
              .flatMap((m) => m.content)
              .map((b) => (b.type === 'textBlock' ? b.text : ''))
              .join(' ')
              .trim(),
          };
    this.#deps.log.debug({ session: this.id, played_ms: playedMs, cut: record.cut }, 'turn history cut');
  }

  /** Saves the conversation once its current history is final (saves run one after another). */
  #save(): void {
    const manager = this.#sessionManager;
    if (!manager) return;
    this.#saving = this.#saving
      .then(async () => {
        if (this.#resolved) await manager.saveSnapshot({ target: this.#resolved, isLatest: true });
      })
      .catch((error: unknown) => this.#deps.log.warn({ err: error, session: this.id }, 'session save failed'));
  }

  /** Resolves once the saves asked for so far are done. */
  flush(): Promise<void> {
    return this.#saving;
  }

  /** Cancels the running turn (shutdown, eviction of a busy conversation). */
  cancel(reason: Error): void {
    this.#newest?.abort(reason);
    void this.#preempted?.discard();
    this.#preempted = undefined;
  }
}
