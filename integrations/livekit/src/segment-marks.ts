// When each segment's text was first sent, for LiveKit's TTFB and duration metrics. LiveKit's base
// class keeps that time in one slot (markStarted), which it empties each time it reports a segment
// and reads at the frames after. Sentences are pipelined, so the next segment's text has usually
// been sent before the one before is reported: its time is kept here and put in the slot right
// after that report, as a microtask (the base class empties the slot just after it emits
// metrics_collected, and reads it again only at the next frame).
import type { Segment } from './ledger.ts';

export interface StartedTime {
  time: number;
  hrTime: bigint;
}

export class SegmentMarks {
  readonly #mark: (at: StartedTime) => void;
  readonly #pending: { segment: Segment; at: StartedTime }[] = [];

  constructor(mark: (at: StartedTime) => void) {
    this.#mark = mark;
  }

  /** Text of `segment` is being sent. */
  sent(segment: Segment): void {
    if (this.#pending.some((p) => p.segment === segment)) return;
    const at = { time: performance.now() / 1000, hrTime: process.hrtime.bigint() };
    this.#pending.push({ segment, at });
    if (this.#pending.length === 1) this.#mark(at);
  }

  /**
   * LiveKit reported a segment: the one of that `final` frame (`segmentId`), with any before it
   * that never had one; without a final frame (the stream's end), the oldest.
   */
  reported(segmentId: string | undefined): void {
    const upTo = this.#pending.findIndex((p) => p.segment.id === segmentId);
    this.#pending.splice(0, upTo < 0 ? 1 : upTo + 1);
    const next = this.#pending[0];
    if (next) queueMicrotask(() => this.#mark(next.at));
  }
}
