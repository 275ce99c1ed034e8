// When the customer's turn is over: the STT has given its final words and the customer has then
// been silent for the end-of-turn time, counted on the audio clock (samples received) from where
// the STT says the words ended. Speech or new words before that keep the turn open, and the
// finals so far join into one message. The session adds a wall-clock fallback for a caller that
// stops sending audio (voice-session.ts).

export interface CustomerTurn {
  /** What the customer said: the user's message of the turn. */
  text: string;
  /** Sample at which the last words ended (the end of speech). */
  endSample: number;
}

export class TurnTaking {
  readonly #endOfTurnSamples: number;
  #finals: string[] = [];
  #partial = '';
  #inSpeech = false;
  #lastEnd = 0;

  constructor(endOfTurnSamples: number) {
    this.#endOfTurnSamples = endOfTurnSamples;
  }

  /** The transcript of the turn so far (finals, then the words still being heard). */
  get text(): string {
    return [...this.#finals, this.#partial].filter((t) => t !== '').join(' ');
  }

  /** Final words are waiting for the silence that ends the turn. */
  get armed(): boolean {
    return this.#finals.length > 0 && !this.#inSpeech && this.#partial === '';
  }

  /** The VAD hears speech now. */
  get inSpeech(): boolean {
    return this.#inSpeech;
  }

  get heardWords(): boolean {
    return this.#finals.length > 0 || this.#partial !== '';
  }

  speechStart(): void {
    this.#inSpeech = true;
  }

  speechEnd(): void {
    this.#inSpeech = false;
  }

  partial(text: string): void {
    this.#partial = text.trim();
  }

  final(text: string, endSample: number): void {
    this.#partial = '';
    const words = text.trim();
    if (words === '') return; // noise the VAD took for speech
    this.#finals.push(words);
    this.#lastEnd = Math.max(this.#lastEnd, endSample);
  }

  /** At audio clock `sample`: the customer's turn if it is over (the state is then reset). */
  due(sample: number): CustomerTurn | null {
    if (!this.armed || sample - this.#lastEnd < this.#endOfTurnSamples) return null;
    return this.take();
  }

  /** The turn as heard now, whatever the silence (listen_end, the wall-clock fallback). */
  take(): CustomerTurn | null {
    if (this.#finals.length === 0 && this.#partial === '') return null;
    const turn = { text: this.text, endSample: this.#lastEnd };
    this.#finals = [];
    this.#partial = '';
    return turn;
  }

  /** Forgets what was heard (a backchannel over the agent's speech). */
  drop(): void {
    this.#finals = [];
    this.#partial = '';
  }
}
