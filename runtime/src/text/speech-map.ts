// Builds spoken text piece by piece while recording which source range each piece came from.

/** One mapped range: source text [sourceStart, sourceEnd) is spoken as spoken[spokenStart, spokenEnd). */
export interface SpeechSegment {
  sourceStart: number;
  sourceEnd: number;
  spokenStart: number;
  spokenEnd: number;
}

/** The result of normalizeForSpeech: segments tile both the source and the spoken text, in order. */
export interface NormalizedText {
  spoken: string;
  segments: SpeechSegment[];
}

/**
 * Spoken text built piece by piece. It is kept as parts, and its end is read from the last part:
 * testing or appending to one ever-growing string would copy it each time (quadratic on a long
 * line of many matches).
 */
export class SpeechBuilder {
  readonly segments: SpeechSegment[] = [];
  #parts: string[] = [];
  #length = 0;
  #source = 0;

  /** The end of the source mapped so far. */
  get sourceEnd(): number {
    return this.#source;
  }

  get length(): number {
    return this.#length;
  }

  /** The spoken text so far. */
  get spoken(): string {
    if (this.#parts.length > 1) this.#parts = [this.#parts.join('')];
    return this.#parts[0] ?? '';
  }

  /** The length without trailing whitespace. */
  get trimmedLength(): number {
    let length = this.#length;
    for (let k = this.#parts.length - 1; k >= 0; k--) {
      const p = this.#parts[k]!;
      const kept = p.trimEnd().length;
      length -= p.length - kept;
      if (kept > 0) break;
    }
    return length;
  }

  /** The last character spoken ('' when none). */
  get last(): string {
    for (let k = this.#parts.length - 1; k >= 0; k--) {
      const p = this.#parts[k]!;
      if (p !== '') return p[p.length - 1]!;
    }
    return '';
  }

  /** Maps source [from, to) to `text`; spaces are not doubled and none lead the output. */
  add(from: number, to: number, text: string): void {
    if (from !== this.#source || to < from) {
      throw new Error(`SpeechBuilder: source range [${from}, ${to}) does not follow ${this.#source}`);
    }
    let t = text;
    if (/^[^\S\n]*[,.;:!?]/.test(t) && this.last !== '\n') this.trimEnd(); // no space before punctuation
    if (this.#length === 0) t = t.trimStart();
    else if (/\s/.test(this.last)) t = t.replace(/^[^\S\n]+/, '');
    const spokenStart = this.#length;
    if (t !== '') this.#parts.push(t);
    this.#length += t.length;
    this.segments.push({ sourceStart: from, sourceEnd: to, spokenStart, spokenEnd: this.#length });
    this.#source = to;
  }

  /** Removes trailing whitespace, shrinking the spoken ranges that covered it. */
  trimEnd(): void {
    while (this.#parts.length > 0) {
      const p = this.#parts.pop()!;
      const kept = p.trimEnd();
      this.#length -= p.length - kept.length;
      if (kept !== '') {
        this.#parts.push(kept);
        break;
      }
    }
    const length = this.#length;
    for (let k = this.segments.length - 1; k >= 0; k--) {
      const s = this.segments[k]!;
      if (s.spokenEnd <= length) break;
      s.spokenEnd = length;
      s.spokenStart = Math.min(s.spokenStart, length);
    }
  }

  finish(): NormalizedText {
    this.trimEnd();
    return { spoken: this.spoken, segments: this.segments };
  }
}

/**
 * The source range a spoken range came from (for captions and word timestamps). Offsets inside a
 * segment copied verbatim (spaces around it aside) map one to one; elsewhere the whole segment is
 * returned. An empty or
 * out-of-range spoken range gives an empty range at the end of the source.
 */
export function sourceRange(
  source: string,
  n: NormalizedText,
  spokenStart: number,
  spokenEnd: number,
): { start: number; end: number } {
  let start = -1;
  let end = -1;
  for (const s of n.segments) {
    if (s.spokenEnd <= spokenStart || s.spokenStart === s.spokenEnd) continue; // dropped markup is not a caption
    if (s.spokenStart >= spokenEnd) break;
    // verbatim: the spoken text is the source's, but for spaces the builder dropped around it
    const src = source.slice(s.sourceStart, s.sourceEnd);
    const said = n.spoken.slice(s.spokenStart, s.spokenEnd);
    const shift = src.indexOf(said);
    const verbatim =
      shift >= 0 && src.length - said.length === src.length - src.trim().length - (said.length - said.trim().length);
    const at = s.sourceStart + shift;
    const from = verbatim ? at + Math.max(0, spokenStart - s.spokenStart) : s.sourceStart;
    const to = verbatim ? at + Math.min(s.spokenEnd, spokenEnd) - s.spokenStart : s.sourceEnd;
    if (start < 0) start = from;
    end = Math.max(end, to);
  }
  return start < 0 ? { start: source.length, end: source.length } : { start, end };
}
