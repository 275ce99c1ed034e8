// Builds an utterance's script (engine/script.ts) piece by piece as markup is read: the text to
// show, one source range per shown character (so word offsets map back to the text as sent),
// pauses, rates and spans with fixed pronunciations.
import type { Script, ScriptPart, SpanOverride } from '../engine/script.ts';
import type { SpokenText } from '../tts/spoken-text.ts';

export class ScriptBuilder {
  #text = '';
  readonly #srcStart: number[] = [];
  readonly #srcEnd: number[] = [];
  readonly #parts: ScriptPart[] = [];
  readonly #overrides: SpanOverride[] = [];
  #partStart = 0;
  readonly #boundaries: number[] = [];
  #rate = 1;
  #plain = true;

  /** Characters shown so far. */
  get length(): number {
    return this.#text.length;
  }

  get text(): string {
    return this.#text;
  }

  /** Appends `text`; its character i came from the source range [srcStart[i], srcEnd[i]). */
  append(text: string, srcStart: readonly number[], srcEnd: readonly number[]): void {
    this.#text += text;
    // A loop, not push(...): a 64 KiB text would pass more arguments than a call takes.
    for (let i = 0; i < srcStart.length; i++) {
      this.#srcStart.push(srcStart[i]!);
      this.#srcEnd.push(srcEnd[i]!);
    }
  }

  /** Fixes the pronunciation of the shown text [start, end). */
  override(override: SpanOverride): void {
    this.#plain = false;
    this.#overrides.push(override);
  }

  /** Whether [start, end) touches a span already fixed. */
  overlapsOverride(start: number, end: number): boolean {
    return this.#overrides.some((o) => o.start < end && start < o.end);
  }

  /** Whether [start, end) runs over a pause or a change of rate (a lexicon phrase must not). */
  crossesPart(start: number, end: number): boolean {
    return this.#boundaries.some((b) => start < b && b < end);
  }

  pause(ms: number): void {
    this.#plain = false;
    this.#closePart();
    this.#parts.push({ kind: 'pause', ms });
  }

  /** The rate of the text appended from now on. */
  set rate(value: number) {
    const rate = Math.round(value * 1e6) / 1e6; // 1.5 * 0.8 is 1.2, not 1.2000000000000002
    if (rate === this.#rate) return;
    this.#plain = false;
    this.#closePart();
    this.#rate = rate;
  }

  get rate(): number {
    return this.#rate;
  }

  /** The text shown differs from the text sent (markup was taken out). */
  markMarkup(): void {
    this.#plain = false;
  }

  build(): SpokenText {
    this.#closePart();
    const script: Script = {
      text: this.#text,
      parts: this.#parts,
      overrides: [...this.#overrides].sort((a, b) => a.start - b.start),
    };
    const starts = this.#srcStart;
    const ends = this.#srcEnd;
    const n = this.#text.length;
    return {
      script,
      plain: this.#plain,
      source: (start, end) => {
        if (n === 0) return { start: 0, end: 0 };
        const first = Math.min(start, n - 1);
        const last = Math.min(Math.max(end - 1, first), n - 1);
        return { start: starts[first]!, end: Math.max(starts[first]!, ends[last]!) };
      },
    };
  }

  #closePart(): void {
    this.#boundaries.push(this.#text.length);
    if (this.#text.length > this.#partStart) {
      this.#parts.push({ kind: 'text', start: this.#partStart, end: this.#text.length, rate: this.#rate });
    }
    this.#partStart = this.#text.length;
  }
}

/** Source offsets of a run of text copied as it is, starting at `from`. */
export function identityOffsets(length: number, from: number): { starts: number[]; ends: number[] } {
  const starts = Array.from({ length }, (_, i) => from + i);
  return { starts, ends: starts.map((s) => s + 1) };
}
