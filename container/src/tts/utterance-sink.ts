// What an utterance stream tells the one it serves (a WebSocket session or an HTTP response).
import type { OutputAudio } from '../audio/index.ts';
import type { SpeechError } from './errors.ts';
import type { Settings } from './speech-service.ts';

export interface UtteranceInfo {
  id: string;
  index: number;
  settings: Settings;
  output: OutputAudio;
  /** The client's trace parent for this utterance (protocol v1 `traceparent`), if it sent one. */
  traceparent?: string;
}

/** When an utterance passed each stage (performance.now() ms), for its trace spans. */
export interface UtteranceMarks {
  receivedAt: number;
  prepStartAt?: number;
  prepEndAt?: number;
  firstRunAt?: number;
  lastRunEndAt?: number;
}

export interface UtteranceStats {
  samples: number;
  durationMs: number;
  /** Model run time of all its pieces. */
  synthesisMs: number;
  /** From the text's arrival to its first model run (preparation plus waiting in the queue). */
  queueMs: number;
  pieces: number;
  marks: UtteranceMarks;
}

/** A word of an utterance and when it is spoken, in ms from the utterance's first sample. */
export interface UtteranceWord {
  text: string;
  /** Offsets into the utterance's text. */
  start: number;
  end: number;
  start_ms: number;
  end_ms: number;
}

/** Where an utterance's events go (a WebSocket session or an HTTP response). */
export interface UtteranceSink {
  start(u: UtteranceInfo): void;
  audio(u: UtteranceInfo, bytes: Buffer): void;
  /** The words of the piece whose audio was just sent (sinks that show no captions leave it out). */
  words?(u: UtteranceInfo, words: UtteranceWord[], estimated: boolean): void;
  end(u: UtteranceInfo, stats: UtteranceStats): void;
  fail(u: UtteranceInfo, error: SpeechError, marks?: UtteranceMarks): void;
}
