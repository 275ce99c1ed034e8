// Preemptive generation for a voice session (VOICE_PREEMPTIVE; docs/design/voice-in.md): once the
// words of the customer's turn so far can no longer change (a final, or a partial whose every word
// the STT marks stable, heard after the VAD's end of speech), the session asks its host to start
// answering them: the conversation holds that answer (conversation/preemptive-answer.ts) and
// nothing of it reaches the caller, the TTS or the history. A transcript that differs from the
// held words discards it at once (its LLM request is aborted). At the end of the turn it is left
// for the turn to adopt when the turn's words are the held words, else discarded; the answer's
// first audio then comes as much earlier as the LLM ran ahead (at most the end-of-turn silence
// plus the STT's own lag after the end of speech).

/** An answer the host started ahead of its turn. */
export interface HeldAnswer {
  /** The customer said something else: abort it and forget it. */
  discard(): void;
}

export class PreemptiveTurn {
  readonly #start: ((prompt: string) => HeldAnswer | undefined) | undefined;
  #held: { text: string; answer: HeldAnswer } | null = null;
  /** The turn's words as of the last partial, when all of them were stable; '' otherwise. */
  #stable = '';

  /** `start` absent: preemption is off and this does nothing. */
  constructor(start: ((prompt: string) => HeldAnswer | undefined) | undefined) {
    this.#start = start;
  }

  /** The words an answer is held for (tests, logs); '' when none. */
  get heldText(): string {
    return this.#held?.text ?? '';
  }

  /** A partial: `text` is the turn's words so far; `allStable`: the STT will not revise them. */
  partial(text: string, allStable: boolean, inSpeech: boolean): void {
    this.#differs(text);
    this.#stable = allStable ? text : '';
    if (!inSpeech) this.#begin(this.#stable);
  }

  /** The VAD heard the speech end: a stable partial heard before it can be answered now. */
  speechEnd(): void {
    this.#begin(this.#stable);
  }

  /** A final: `text` is the turn's words so far, all final. */
  final(text: string): void {
    this.#stable = '';
    this.#differs(text);
    this.#begin(text);
  }

  /** The turn ends with `text`: a held answer for exactly these words is left for the turn to
   *  adopt (the host's turn with the same prompt takes it); any other is discarded. */
  turn(text: string): void {
    this.#differs(text);
    this.#held = null;
    this.#stable = '';
  }

  /** Nothing will be answered (the session closed, the words were dropped). */
  discard(): void {
    this.#held?.answer.discard();
    this.#held = null;
    this.#stable = '';
  }

  #differs(text: string): void {
    if (this.#held && this.#held.text !== text) this.discard();
  }

  #begin(text: string): void {
    if (!this.#start || text === '' || this.#held) return;
    const answer = this.#start(text);
    if (answer) this.#held = { text, answer };
  }
}
