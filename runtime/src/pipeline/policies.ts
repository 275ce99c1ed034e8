// Turn policies: how the answer's text becomes utterances and when each is sent to Kokoro.
// `stream` is ours; `batch` is the baseline (`mode: "batch"`). A benchmark brings its own plan
// (runtime/src/testing/bench-policies.ts: the reference agent's regex split, ours without the
// early first piece; docs/design/streaming-and-segmenter.md#turn-policies).
import { SentenceSegmenter, type SegmenterLanguage } from '../text/index.ts';

export const TURN_POLICIES = ['stream', 'batch'] as const;
export type TurnPolicy = (typeof TURN_POLICIES)[number];

/** Cuts streamed text into pieces: the contract of SentenceSegmenter's push/flush. */
export interface PieceSplitter {
  push(delta: string): string[];
  flush(): string[];
}

export interface PolicyPlan {
  splitter: PieceSplitter;
  /** Collect the whole answer before cutting anything (batch). */
  wholeAnswerFirst: boolean;
  /** Send an utterance only once the previous one's audio is complete (a benchmark's baseline). */
  waitForPreviousAudio: boolean;
}

/** A plan of one's own, made fresh for each turn in the turn's language. */
export type PolicyPlanner = (language: SegmenterLanguage) => PolicyPlan;

export function planFor(policy: TurnPolicy | PolicyPlanner, language: SegmenterLanguage = 'en'): PolicyPlan {
  if (typeof policy === 'function') return policy(language);
  switch (policy) {
    case 'stream':
      return { splitter: new SentenceSegmenter({ language }), wholeAnswerFirst: false, waitForPreviousAudio: false };
    case 'batch':
      // Whole sentences (no early piece: the whole answer is known), all sent at once.
      return {
        splitter: new SentenceSegmenter({ earlyFirstPiece: false, language }),
        wholeAnswerFirst: true,
        waitForPreviousAudio: false,
      };
  }
}
