// How the frames of a WebSocket turn become turn events (the turn contract, ./turn.ts, documented
// in runtime/README.md). Text frames are JSON events; binary frames carry audio and name no sentence:
// each belongs to the earliest sentence whose sentence_end has not arrived (audio comes in sentence
// order) and gets that sentence's next seq. Plain JavaScript, so that the page loads it as it is;
// the say CLI and the tests import the same file.
export class WsTurnFramer {
  /** Sentence ids whose audio is still coming, in order. */
  #pending = [];
  #seqs = new Map();

  /** Notes a parsed text-frame event; returns it unchanged. */
  event(event) {
    if (event.type === 'sentence') this.#pending.push(event.id);
    if (event.type === 'sentence_end') {
      const at = this.#pending.indexOf(event.id);
      if (at >= 0) this.#pending.splice(at, 1);
    }
    return event;
  }

  /** The sentence and seq of a binary frame; null when no sentence is open (a stray frame). */
  audio() {
    const id = this.#pending[0];
    if (id === undefined) return null;
    const seq = this.#seqs.get(id) ?? 0;
    this.#seqs.set(id, seq + 1);
    return { id, seq };
  }
}
