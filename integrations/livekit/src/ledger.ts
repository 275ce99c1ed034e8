// What a stream has been given to speak, in order, across LiveKit's attempts: the utterances (one
// per sentence), the segments that flush() closes, and whether the input has ended. The input side
// appends; an attempt speaks what is not done and waits for more.
import { shortuuid } from '@livekit/agents';
import type { SpokenText } from './spoken-text.ts';

export interface Segment {
  readonly id: string;
  readonly utterances: Utterance[];
  /** flush() (or the end of the input) closed it: no utterance joins it any more. */
  closed: boolean;
}

export interface Utterance {
  readonly id: string;
  readonly segment: Segment;
  readonly text: SpokenText;
  /** Samples delivered so far (frames put on the stream's queue). */
  samples: number;
  state: 'pending' | 'done' | 'failed';
}

export class Ledger {
  readonly #prefix = shortuuid();
  readonly utterances: Utterance[] = [];
  #segment: Segment = this.#newSegment();
  #ended = false;
  #wake: (() => void) | null = null;

  /** No more text will come (endInput, or the stream closed). */
  get ended(): boolean {
    return this.#ended;
  }

  /** An utterance has part of its audio delivered, not all: an attempt that fails now cannot be rerun. */
  get partial(): boolean {
    return this.utterances.some((u) => u.state === 'pending' && u.samples > 0);
  }

  /** Samples of the stream's audio delivered before this utterance (the clock of its timed transcript). */
  offsetOf(utterance: Utterance): number {
    let samples = 0;
    for (const u of this.utterances) {
      if (u === utterance) return samples;
      samples += u.samples;
    }
    return samples;
  }

  add(text: SpokenText): Utterance {
    const u: Utterance = {
      id: `${this.#prefix}-${this.utterances.length}`,
      segment: this.#segment,
      text,
      samples: 0,
      state: 'pending',
    };
    this.#segment.utterances.push(u);
    this.utterances.push(u);
    this.#notify();
    return u;
  }

  /** Ends the current segment (flush); an empty one is kept open, as nothing marks it. */
  closeSegment(): void {
    if (this.#segment.utterances.length === 0) return;
    this.#segment.closed = true;
    this.#segment = this.#newSegment();
    this.#notify();
  }

  end(): void {
    this.closeSegment();
    this.#ended = true;
    this.#notify();
  }

  /** Whether this is the last utterance of a closed segment, the others of it settled. */
  endsSegment(u: Utterance): boolean {
    return u.segment.closed && u.segment.utterances.every((o) => o === u || o.state !== 'pending');
  }

  /** Resolves at the next add, segment end or end (or at once if aborted). */
  changed(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.#wake = null;
        resolve();
      };
      this.#wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }

  #notify(): void {
    this.#wake?.();
  }

  #newSegment(): Segment {
    return { id: shortuuid(), utterances: [], closed: false };
  }
}
