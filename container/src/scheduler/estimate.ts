// Learns how much audio a model run yields per input token, to estimate a queued piece's length
// before it runs (the deadline scheduler places a session's later pieces with it).

/** Kokoro speaks roughly 12-15 phoneme tokens (about 15 characters) a second at speed 1; refined by observation. */
const INITIAL_MS_PER_TOKEN = 75;
const INITIAL_MS_PER_CHAR = 65;

export class AudioDurationEstimator {
  #msPerToken = INITIAL_MS_PER_TOKEN;
  #msPerChar = INITIAL_MS_PER_CHAR;

  /** Estimated audio length in ms of a piece of `tokens` tokens spoken at `speed`. */
  estimate(tokens: number, speed: number): number {
    return (tokens * this.#msPerToken) / speed;
  }

  /** Estimated audio length in ms of raw text (before preparation). */
  estimateText(chars: number, speed: number): number {
    return (chars * this.#msPerChar) / speed;
  }

  /** Feed back what a run actually produced. */
  observe(tokens: number, chars: number, speed: number, audioMs: number): void {
    if (tokens <= 0 || chars <= 0 || !(audioMs >= 0)) return;
    this.#msPerToken = 0.8 * this.#msPerToken + 0.2 * ((audioMs * speed) / tokens);
    this.#msPerChar = 0.8 * this.#msPerChar + 0.2 * ((audioMs * speed) / chars);
  }
}
