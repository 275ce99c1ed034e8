// Turn policies: how the answer's text becomes utterances and when each is sent to Kokoro.
// `stream` is ours; `batch` is the baseline; `reference` and `stream-no-early-first` exist for the
// first-audio benchmark (reference: the aws-samples agent's regex split, each sentence waiting for
// the previous one's audio; docs/design/streaming-and-segmenter.md#turn-policies).
import { SentenceSegmenter, type SegmenterLanguage } from '../text/index.ts';

export const TURN_POLICIES = ['stream', 'batch', 'reference', 'stream-no-early-first'] as const;
export type TurnPolicy = (typeof TURN_POLICIES)[number];

/** Cuts streamed text into pieces: the contract of SentenceSegmenter's push/flush. */
export interface PieceSplitter {
  push(delta: string): string[];
  flush(): string[];
}

/** The reference agent's splitter: `(?<=[.!?])\s+` over the text so far, no other rules. */
export class RegexSentenceSplitter implements PieceSplitter {
  #buffer = '';

  push(delta: string): string[] {
    this.#buffer += delta;
    const parts = this.#buffer.split(/(?<=[.!?])\s+/);
    this.#buffer = parts.pop() ?? '';
    return parts.filter((p) => p.trim() !== '');
  }

  flush(): string[] {
    const rest = this.#buffer.trim();
    this.#buffer = '';
    return rest ? [rest] : [];
  }
}

export interface PolicyPlan {
  splitter: PieceSplitter;
  /** Collect the whole answer before cutting anything (batch). */
  wholeAnswerFirst: boolean;
  /** Send an utterance only once the previous one's audio is complete (reference). */
  waitForPreviousAudio: boolean;
}

export function planFor(policy: TurnPolicy, language: SegmenterLanguage = 'en'): PolicyPlan {
  switch (policy) {
    case 'stream':
      return { splitter: new SentenceSegmenter({ language }), wholeAnswerFirst: false, waitForPreviousAudio: false };
    case 'stream-no-early-first':
      return {
        splitter: new SentenceSegmenter({ earlyFirstPiece: false, language }),
        wholeAnswerFirst: false,
        waitForPreviousAudio: false,
      };
    case 'batch':
      // Whole sentences (no early piece: the whole answer is known), all sent at once.
      return {
        splitter: new SentenceSegmenter({ earlyFirstPiece: false, language }),
        wholeAnswerFirst: true,
        waitForPreviousAudio: false,
      };
    case 'reference':
      return { splitter: new RegexSentenceSplitter(), wholeAnswerFirst: false, waitForPreviousAudio: true };
  }
}
