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

export class SpeechBuilder {
  spoken = '';
  readonly segments: SpeechSegment[] = [];
  #source = 0;

  /** The end of the source mapped so far. */
  get sourceEnd(): number {
    return this.#source;
  }

  /** Maps source [from, to) to `text`; spaces are not doubled and none lead the output. */
  add(from: number, to: number, text: string): void {
    if (from !== this.#source || to < from) {
      throw new Error(`SpeechBuilder: source range [${from}, ${to}) does not follow ${this.#source}`);
    }
    let t = text;
    if (/^[^\S\n]*[,.;:!?]/.test(t) && !this.spoken.endsWith('\n')) this.trimEnd(); // no space before punctuation
    if (this.spoken === '') t = t.trimStart();
    else if (/\s$/.test(this.spoken)) t = t.replace(/^[^\S\n]+/, '');
    const spokenStart = this.spoken.length;
    this.spoken += t;
    this.segments.push({ sourceStart: from, sourceEnd: to, spokenStart, spokenEnd: this.spoken.length });
    this.#source = to;
  }

  /** Removes trailing whitespace, shrinking the spoken ranges that covered it. */
  trimEnd(): void {
    const length = this.spoken.trimEnd().length;
    this.spoken = this.spoken.slice(0, length);
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
