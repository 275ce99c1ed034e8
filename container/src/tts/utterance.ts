// One utterance as the stream keeps it: its text and script, its pieces and their results, and
// where its audio stands.
import type { UtteranceEncoder } from '../audio/index.ts';
import type { PreparedPiece, Synthesis } from '../engine/types.ts';
import { MAX_SPEED, MIN_SPEED } from '@kokoro-speech/protocol';
import type { SpeechBudget } from './output-bound.ts';
import type { SpokenText } from './spoken-text.ts';
import type { UtteranceInfo, UtteranceMarks } from './utterance-sink.ts';

export interface Utterance {
  info: UtteranceInfo;
  /** The utterance's script and where its shown text came from (word offsets point into the source). */
  spoken: SpokenText;
  receivedAt: number;
  /** Estimated audio of the whole text, until it is prepared into pieces. */
  textEstimateMs: number;
  prepared: Promise<PreparedPiece[]>;
  pieces: PreparedPiece[] | null;
  results: (Synthesis | undefined)[];
  /** Model-rate samples of the pieces already sent (where the next piece's words start). */
  nativeSamples: number;
  /** Estimated audio of each piece (ms), counted in queuedAudioMs until sent. */
  estimates: number[];
  delivered: number;
  started: boolean;
  encoder: UtteranceEncoder;
  /** Samples already counted into the playout clock. */
  samplesSent: number;
  synthesisMs: number;
  firstRunAt: number | undefined;
  marks: UtteranceMarks;
  /** Speech the utterance may still make for its text (output-bound.ts). */
  budget: SpeechBudget;
}

/** The utterance's speed times the piece's rate (SSML <prosody>), within what the model takes. */
export function pieceSpeed(u: Utterance, piece: PreparedPiece): number {
  const speed = u.info.settings.speed * (piece.rate ?? 1);
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}
