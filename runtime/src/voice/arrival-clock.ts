// When each stretch of the caller's audio arrived, so that a sample number (where the STT says the
// words ended) maps to the wall-clock time of the end of speech. Bounded: the last frames only.

const KEPT = 1024; // frames: 20 s of 20 ms frames, more than an utterance's final lags behind

export class ArrivalClock {
  readonly #ends: number[] = [];
  readonly #times: number[] = [];

  /** Audio up to sample `end` (exclusive) arrived at `at` (performance.now ms). */
  note(end: number, at: number): void {
    this.#ends.push(end);
    this.#times.push(at);
    if (this.#ends.length > KEPT) {
      this.#ends.shift();
      this.#times.shift();
    }
  }

  /** When sample `sample` arrived (the earliest kept frame for one older than all kept). */
  at(sample: number): number {
    const i = this.#ends.findIndex((end) => end >= sample);
    if (i >= 0) return this.#times[i]!;
    return this.#times.at(-1) ?? performance.now();
  }
}
