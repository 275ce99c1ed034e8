// Learns how much audio a model run yields per input token, to estimate a queued piece's length
// before it runs (the deadline scheduler places a session's later pieces with it).

/** Kokoro speaks roughly 12-15 phoneme tokens a second at speed 1; refined by observation. */
const INITIAL_MS_PER_TOKEN = 75;

export class AudioDurationEstimator {
  private msPerToken = INITIAL_MS_PER_TOKEN;

  /** Estimated audio length in ms of a piece of `tokens` tokens spoken at `speed`. */
  estimate(tokens: number, speed: number): number {
    return (tokens * this.msPerToken) / speed;
  }

  /** Feed back what a run actually produced. */
  observe(tokens: number, speed: number, audioMs: number): void {
    if (tokens <= 0 || !(audioMs >= 0)) return;
    const sample = (audioMs * speed) / tokens;
    this.msPerToken = 0.8 * this.msPerToken + 0.2 * sample;
  }
}
