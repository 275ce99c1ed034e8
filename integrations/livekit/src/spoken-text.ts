// One sentence as shown (what the LLM wrote) and as spoken (what Kokoro is sent), and the container's
// word times turned into LiveKit's timed transcript: the shown text, word by word, on the stream's
// audio clock in seconds (docs/design/livekit-plugin.md#word-timings).
import { createTimedString } from '@livekit/agents';
import type { TimedString } from '@livekit/agents';
import { normalizeForSpeech, sourceRange } from '@kokoro-speech/runtime/text';
import type { Language, NormalizedText } from '@kokoro-speech/runtime/text';
import type { WordTiming } from '@kokoro-speech/protocol';

export interface SpokenText {
  /** The sentence as given, without the whitespace around it. */
  readonly shown: string;
  /** What Kokoro speaks ('' when nothing of it is spoken, e.g. a code block). */
  readonly spoken: string;
  /** The normaliser's map from spoken back to shown (null: spoken is shown as is). */
  readonly map: NormalizedText | null;
  /** Characters trimmed off the front of the map's spoken text. */
  readonly lead: number;
}

export function spokenText(text: string, normalize: boolean, language: Language = 'en'): SpokenText {
  const shown = text.trim();
  if (!normalize) return { shown, spoken: shown, map: null, lead: 0 };
  const map = normalizeForSpeech(shown, { language });
  const spoken = map.spoken.trim();
  return { shown, spoken, map, lead: map.spoken.length - map.spoken.trimStart().length };
}

/**
 * Timed strings of one utterance, built as its words arrive: each word carries the shown text from
 * the end of the one before (punctuation and quotes go with the word they precede), the last one
 * the rest of the sentence, so that together they are the sentence as shown; a sentence after the
 * stream's first starts with the space that parts it from the one before.
 */
export class TimedWords {
  readonly #text: SpokenText;
  readonly #offsetS: number;
  #lead: string;
  #shownEnd = 0;
  #any = false;

  /** `offsetS`: where the utterance starts on the stream's audio clock; `first`: of the stream. */
  constructor(text: SpokenText, offsetS: number, first: boolean) {
    this.#text = text;
    this.#offsetS = offsetS;
    this.#lead = first ? '' : ' ';
  }

  /** The strings of a `words` event (times from the utterance's first sample). */
  add(words: readonly WordTiming[]): TimedString[] {
    const out: TimedString[] = [];
    for (const w of words) {
      const { end } = this.#shownRange(w.start, w.end);
      if (end <= this.#shownEnd) continue; // a word the normaliser made of the same shown span
      out.push(
        createTimedString({
          text: this.#take(end),
          startTime: this.#offsetS + w.start_ms / 1000,
          endTime: this.#offsetS + w.end_ms / 1000,
        }),
      );
      this.#any = true;
    }
    return out;
  }

  /**
   * At the utterance's end: the rest of the shown text, if any. Appended to `pending` (its last string) when
   * there is one; a whole-sentence string from `durationS` when no word came (a server without word
   * timings), as LiveKit's StreamAdapter times a sentence.
   */
  finish(pending: TimedString[], durationS: number): TimedString[] {
    const rest = this.#take(this.#text.shown.length);
    if (!this.#any) {
      this.#any = true;
      return [
        ...pending,
        createTimedString({ text: rest, startTime: this.#offsetS, endTime: this.#offsetS + durationS }),
      ];
    }
    if (rest === '') return pending;
    const last = pending.at(-1);
    if (last) last.text += rest;
    else pending.push(createTimedString({ text: rest }));
    return pending;
  }

  /** The shown text up to `end` not yet taken, after the lead space if not yet given. */
  #take(end: number): string {
    const text = this.#lead + this.#text.shown.slice(this.#shownEnd, end);
    this.#lead = '';
    this.#shownEnd = end;
    return text;
  }

  #shownRange(start: number, end: number): { start: number; end: number } {
    const { map, lead, shown } = this.#text;
    if (map === null) return { start: Math.min(start, shown.length), end: Math.min(end, shown.length) };
    return sourceRange(shown, map, start + lead, end + lead);
  }
}
