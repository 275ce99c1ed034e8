// How much speech one utterance may make for the text it was given: a runaway (a model that does
// not stop, a lexicon entry that says a paragraph for a word) ends the utterance with an error
// naming the bound instead of streaming without end. Pauses have their own cap (SSML <break>,
// pronunciation/ssml-values.ts). The figures and why: docs/design/output-bounds-and-api-key.md.
import { SpeechError } from './errors.ts';

/** Speech at speed 1 that any text may make, however short ("1." is "one."). */
export const SPEECH_FLOOR_MS = 5_000;
/** Speech at speed 1 per character of the text as sent (markup counted): ~15x Kokoro's usual rate. */
export const SPEECH_MS_PER_CHAR = 1_000;

/** The speech budget of one utterance, drawn down piece by piece as the model makes its audio. */
export class SpeechBudget {
  readonly inputChars: number;
  readonly limitMs: number;
  #usedMs = 0;

  constructor(inputChars: number) {
    this.inputChars = inputChars;
    this.limitMs = SPEECH_FLOOR_MS + inputChars * SPEECH_MS_PER_CHAR;
  }

  /**
   * Counts `audioMs` made at `speed` (normalised to speed 1, so a slow voice is not refused for
   * being slow); throws 422 unspeakable_text once the utterance's speech exceeds its budget.
   */
  take(audioMs: number, speed: number): void {
    this.#usedMs += audioMs * speed;
    if (this.#usedMs <= this.limitMs) return;
    throw new SpeechError(
      'unspeakable_text',
      `the model made over ${Math.round(this.#usedMs / 1000)} s of speech (at speed 1) for ${this.inputChars} ` +
        `characters; an utterance may make at most ${SPEECH_FLOOR_MS / 1000} s + ${SPEECH_MS_PER_CHAR / 1000} s ` +
        `per character (${Math.round(this.limitMs / 1000)} s here), so it was stopped (container/README.md, Output bounds)`,
    );
  }
}
