// An answer started before its turn (preemptive generation: docs/design/voice-in.md). A voice
// session that heard stable words asks its conversation to start answering them while the customer
// may still be finishing; the agent's events are held here, and nothing reaches the caller or the
// TTS until a turn with the same prompt adopts the answer and reads them. Discarded (the customer
// said something else), the model request is aborted and the conversation's history is restored
// as it was before (the owner's `restore`), so nothing of it stays. What is held is bounded: the
// pump stops pulling at MAX_HELD events, and at a tool call (no tool runs for words not confirmed).
import type { AnswerEvent, AnswerSource } from '../pipeline/types.ts';
import type { SpokenLanguage } from '@kokoro-speech/protocol';
import { Transcript } from './transcript.ts';

/** Text deltas and tool events held before the turn reads them (a few sentences' worth). */
const MAX_HELD = 256;

export type PreemptedSource = (signal: AbortSignal, transcript: Transcript) => AsyncIterable<AnswerEvent>;

export class PreemptiveAnswer {
  readonly prompt: string;
  readonly language: SpokenLanguage;
  /** What the agent loop wrote: the adopting turn's record takes it (the history cut needs it). */
  readonly transcript = new Transcript();
  readonly #controller = new AbortController();
  readonly #held: AnswerEvent[] = [];
  readonly #settled: Promise<void>;
  readonly #restore: () => void;
  #end: { error?: unknown } | null = null;
  #toolCall = false;
  #adopted = false;
  #discarded: Promise<void> | null = null;
  /** The reader waits for an event; the pump waits for room (or adoption). */
  #wakeReader: (() => void) | null = null;
  #wakePump: (() => void) | null = null;

  constructor(prompt: string, language: SpokenLanguage, source: PreemptedSource, restore: () => void) {
    this.prompt = prompt;
    this.language = language;
    this.#restore = restore;
    this.#settled = this.#pump(source);
  }

  /** Neither adopted nor discarded, and still answering (or answered): a turn may adopt it. */
  get usable(): boolean {
    return !this.#adopted && this.#discarded === null && !this.#controller.signal.aborted;
  }

  /** The turn's answer source: the held events, then the rest as the agent writes it. Once only. */
  adopt(): AnswerSource {
    this.#adopted = true;
    this.#poke();
    return (signal) => this.#read(signal);
  }

  /** Aborts the model request and, once the agent loop has stopped, restores the history. */
  discard(): Promise<void> {
    if (this.#adopted) return this.#settled;
    this.#discarded ??= (async () => {
      this.#controller.abort(new Error('preemptive answer discarded: the customer said something else'));
      this.#poke();
      await this.#settled;
      this.#held.length = 0;
      this.#restore();
    })();
    return this.#discarded;
  }

  #poke(): void {
    this.#wakePump?.();
    this.#wakeReader?.();
  }

  async #pump(source: PreemptedSource): Promise<void> {
    const signal = this.#controller.signal;
    try {
      for await (const event of source(signal, this.transcript)) {
        this.#held.push(event);
        if (event.type === 'tool_call') this.#toolCall = true;
        this.#wakeReader?.();
        while (!signal.aborted && (this.#held.length >= MAX_HELD || (this.#toolCall && !this.#adopted)))
          await new Promise<void>((resolve) => (this.#wakePump = resolve));
        if (signal.aborted) break;
      }
      this.#end = {};
    } catch (error) {
      this.#end = { error };
    } finally {
      this.#wakeReader?.();
    }
  }

  async *#read(signal: AbortSignal): AsyncGenerator<AnswerEvent> {
    const onAbort = () => this.#controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    try {
      for (;;) {
        const event = this.#held.shift();
        if (event) {
          this.#wakePump?.();
          yield event;
          continue;
        }
        if (this.#end) {
          signal.throwIfAborted();
          if ('error' in this.#end) throw this.#end.error;
          return;
        }
        await new Promise<void>((resolve) => (this.#wakeReader = resolve));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      // The turn stopped reading early (an error downstream): the model request goes too.
      if (!this.#end) this.#controller.abort(new Error('the turn stopped reading its answer'));
      this.#poke();
      await this.#settled;
    }
  }
}
