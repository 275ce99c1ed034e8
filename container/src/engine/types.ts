// The engine boundary: what the server and scheduler need from a Kokoro model, nothing more.
import type { Script } from './script.ts';

/** One model-sized piece of text, normalised, phonemised and tokenised (CPU work, done off the event loop). */
export interface PreparedPiece {
  /** The source text of this piece (for logs and captions). */
  text: string;
  /** Phonemes from the voice language's G2P (kokoro-js for English, misaki's espeak path for e f h i p). */
  phonemes: string;
  /** Token ids WITHOUT the pad ids the model wants at both ends; at most MAX_PIECE_TOKENS. */
  tokenIds: number[];
  /** Where `text` starts in the text given to prepare() (absent from engines without word maps). */
  offset?: number;
  /** The words of `text` and the tokens that speak them, in order (absent: no word timings). */
  words?: PieceWord[];
  /** The word map is proportional, not aligned (the tokenizer was not one token per phoneme). */
  wordsApproximate?: boolean;
  /** A pause (SSML <break>): this many ms of silence, no tokens, no model run. */
  pauseMs?: number;
  /** Speed factor of this piece on top of the utterance's speed (SSML <prosody rate>); absent: 1. */
  rate?: number;
}

/** A word of a piece: its place in the text given to prepare() and its tokens. */
export interface PieceWord {
  /** Offsets into the text given to prepare(), [start, end). */
  start: number;
  end: number;
  /** Tokens [tokenStart, tokenEnd) of the piece's tokenIds (pads excluded) that speak it; may be empty. */
  tokenStart: number;
  tokenEnd: number;
}

/** One model run's output. */
export interface Synthesis {
  /** 24 kHz mono samples. */
  audio: Float32Array;
  /** Frames per token, pads included, when the model has a durations output; else null. */
  frames: number[] | null;
}

/** The model's input limit: 512 positions minus the two pads (docs/design/kokoro-model.md#onnx-inputs-and-outputs). */
export const MAX_PIECE_TOKENS = 510;

/** Native output rate of Kokoro-82M. */
export const NATIVE_SAMPLE_RATE = 24000;

export interface Engine {
  readonly sampleRate: number;
  /** Voice ids accepted by `synthesize` (kokoro-js's voices plus any under <model dir>/voices). */
  readonly voices: readonly string[];
  hasVoice(voice: string): boolean;
  /**
   * Normalise, phonemise and tokenise `text` on a worker thread, splitting it into pieces that fit
   * the model (at sentence, then clause, then word boundaries). Resolves [] for text with nothing
   * to speak. A script (script.ts) adds pauses, rates and spans with fixed pronunciations.
   */
  prepare(text: string | Script, voice: string): Promise<PreparedPiece[]>;
  /** Kokoro's phoneme symbols (the model's vocabulary), for checking phonemes a caller gives. */
  readonly symbols?: ReadonlySet<string>;
  /** One model run: 24 kHz mono float32 samples for one prepared piece. */
  synthesize(piece: PreparedPiece, voice: string, speed: number): Promise<Float32Array>;
  /** One model run with the model's per-token durations, when it has them (engines without: use synthesize). */
  synthesizeTimed?(piece: PreparedPiece, voice: string, speed: number): Promise<Synthesis>;
  /** Where word timings come from: the model's durations output, or an estimate from token counts. */
  readonly wordTimings?: 'model' | 'estimate';
  /** What each voice is: language and gender for every Kokoro v1.0 voice (voice-catalog.ts). */
  readonly voiceInfo?: readonly VoiceInfo[];
  /** Voice files refused at start-up (wrong size). */
  readonly refusedVoices?: readonly RefusedVoice[];
  /** Release the model session and worker threads. */
  close(): Promise<void>;
}

/** One voice as the voice list shows it. */
export interface VoiceInfo {
  id: string;
  /** kokoro-js's name, e.g. "Heart"; model-folder voices have none. */
  name?: string;
  /** BCP 47 tag: kokoro-js's for its voices, else from the id's first letter (languages.ts). */
  language: string;
  gender?: string;
  traits?: string;
  /** kokoro-js's grades (A best, F worst): how good the training data was, and the voice overall. */
  target_quality?: string;
  overall_grade?: string;
  /** Why this voice's utterances fail (its language has no G2P here: Japanese, Mandarin); absent: it speaks. */
  unavailable?: string;
  /** kokoro-js (bundled with the package) or the model folder's voices/<id>.bin. */
  source: 'kokoro-js' | 'model-dir';
}

/** A voice file that was refused at start-up (wrong size): named, with the reason. */
export interface RefusedVoice {
  id: string;
  file: string;
  reason: string;
}
