// The turn's tools as they run: a `tool` event when each starts and ends, and the spoken filler
// once tools have run a while with nothing playing (never over audio still to come or playing).
import type { FillerOptions } from '../tools/toolbox.ts';
import type { TurnTrace } from '../observability/index.ts';
import type { SentenceLedger } from './sentences.ts';
import type { AnswerEvent, PipelineEvent } from './types.ts';

/** What the tool events and the filler need of their turn. */
export interface ToolTurn {
  /** The turn has ended (error or cancelled). */
  readonly ended: boolean;
  readonly trace: TurnTrace;
  readonly ledger: SentenceLedger;
  now(): number;
  emit(event: PipelineEvent): void;
  /** The filler of the turn's tools, if any. */
  filler(): FillerOptions | undefined;
  /** Speaks the filler where the answer is now (from a timer: the turn catches what it throws). */
  speakFiller(text: string): void;
}

export class ToolFiller {
  readonly #turn: ToolTurn;
  /** Tools running now, by tool use id. */
  readonly #tools = new Map<string, { name: string; startedMs: number }>();
  #fillerTimer: NodeJS.Timeout | undefined;
  /** The filler was spoken (or is not wanted) for the tools running now. */
  #fillerDone = false;

  constructor(turn: ToolTurn) {
    this.#turn = turn;
  }

  /** A tool started or ended: its `tool` event, and the filler while tools run. */
  onTool(event: Extract<AnswerEvent, { type: 'tool_start' | 'tool_end' }>): void {
    const turn = this.#turn;
    const now = turn.now();
    turn.trace.tool(event);
    if (event.type === 'tool_start') {
      this.#tools.set(event.id, { name: event.name, startedMs: now });
      turn.emit({ type: 'tool', id: event.id, name: event.name, state: 'started', started_ms: now });
      if (this.#tools.size === 1) {
        this.#fillerDone = false;
        const filler = turn.filler();
        if (filler) this.#armFiller(filler.afterMs);
      }
      return;
    }
    const started = this.#tools.get(event.id)?.startedMs ?? now;
    this.#tools.delete(event.id);
    turn.emit({
      type: 'tool',
      id: event.id,
      name: event.name,
      state: 'ended',
      started_ms: started,
      ended_ms: now,
      duration_ms: Math.round((now - started) * 100) / 100,
      ...(event.error === undefined ? {} : { error: event.error }),
    });
    if (this.#tools.size === 0) clearTimeout(this.#fillerTimer);
  }

  /** The turn is ending: no filler any more. */
  stop(): void {
    clearTimeout(this.#fillerTimer);
  }

  #armFiller(ms: number): void {
    clearTimeout(this.#fillerTimer);
    this.#fillerTimer = setTimeout(() => this.#maybeFiller(), Math.max(0, ms));
  }

  /** Speaks the filler if tools still run and nothing is playing; else looks again when it ends. */
  #maybeFiller(): void {
    const turn = this.#turn;
    const filler = turn.filler();
    if (!filler || turn.ended || this.#tools.size === 0 || this.#fillerDone) return;
    if (turn.ledger.audioPending) return this.#armFiller(50); // audio still to come: it will play
    const end = turn.ledger.playbackEnd();
    const now = performance.now();
    if (end !== null && end > now) return this.#armFiller(end - now + 1);
    this.#fillerDone = true;
    turn.speakFiller(filler.text);
  }
}
