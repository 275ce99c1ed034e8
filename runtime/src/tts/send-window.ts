// The send window of a protocol-v1 session (bidi-session.ts). Text goes to the server at once,
// within a window: at most TEXT_AHEAD_CHARS characters whose audio has not arrived (one utterance
// at least). Synthesis runs far ahead of playback, so the window never holds back a reader that
// keeps up; for one that does not (a paused session), it bounds what the server synthesises and
// buffers towards us (the container drops a client with 16 MiB unread: MAX_WS_BUFFERED_BYTES) and
// what a reconnect re-sends. After end(), `end` goes once on each stream, after all the text.

/** Characters of text sent whose audio has not arrived, at most (about a minute of speech). */
export const TEXT_AHEAD_CHARS = 1000;

export interface Text {
  id: string;
  text: string;
}

export class SendWindow {
  /** Utterances given to speak() and not yet sent (the window was full), in order. */
  #unsent: Text[] = [];
  /** `end` went out on the current stream. */
  #endSent = false;

  queue(id: string, text: string): void {
    this.#unsent.push({ id, text });
  }

  /** Nothing waits to be sent. */
  get empty(): boolean {
    return this.#unsent.length === 0;
  }

  /** Everything went out on this stream, `end` included. */
  get finished(): boolean {
    return this.#unsent.length === 0 && this.#endSent;
  }

  /** Cancel: what waits is dropped. */
  clear(): void {
    this.#unsent = [];
  }

  /** A new stream: `end` has not gone out on it. */
  newStream(): void {
    this.#endSent = false;
  }

  /**
   * Of `pending` (the utterances awaiting audio, in order, the unsent ones included), those sent
   * on this stream.
   */
  sent(pending: ReadonlyMap<string, Text>): string[] {
    const unsent = new Set(this.#unsent.map((u) => u.id));
    return [...pending.keys()].filter((id) => !unsent.has(id));
  }

  /** Takes off the queue, in order, what the window lets go now (given `pending`, as above). */
  take(pending: ReadonlyMap<string, Text>): Text[] {
    let ahead = 0; // characters sent whose audio has not arrived
    for (const u of pending.values()) ahead += u.text.length;
    for (const u of this.#unsent) ahead -= u.text.length;
    const going: Text[] = [];
    while (this.#unsent.length > 0) {
      const next = this.#unsent[0]!;
      if (ahead > 0 && ahead + next.text.length > TEXT_AHEAD_CHARS) break;
      this.#unsent.shift();
      ahead += next.text.length;
      going.push(next);
    }
    return going;
  }

  /** Whether `end` is due now (`ending`: end() was called; all text sent); then counts it sent. */
  takeEnd(ending: boolean): boolean {
    if (!ending || this.#unsent.length > 0 || this.#endSent) return false;
    this.#endSent = true;
    return true;
  }
}
