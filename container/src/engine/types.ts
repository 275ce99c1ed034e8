// The engine boundary: what the server and scheduler need from a Kokoro model, nothing more.

/** One model-sized piece of text, normalised, phonemised and tokenised (CPU work, done off the event loop). */
export interface PreparedPiece {
  /** The source text of this piece (for logs and captions). */
  text: string;
  /** espeak-ng phonemes as kokoro-js produces them. */
  phonemes: string;
  /** Token ids WITHOUT the pad ids the model wants at both ends; at most MAX_PIECE_TOKENS. */
  tokenIds: number[];
}

/** The model's input limit: 512 positions minus the two pads (field notes, section 2). */
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
   * to speak.
   */
  prepare(text: string, voice: string): Promise<PreparedPiece[]>;
  /** One model run: 24 kHz mono float32 samples for one prepared piece. */
  synthesize(piece: PreparedPiece, voice: string, speed: number): Promise<Float32Array>;
  /** Release the model session and worker threads. */
  close(): Promise<void>;
}
