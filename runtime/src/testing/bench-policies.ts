// The first-audio benchmark's comparison policies (runtime/bench/first-audio.ts), passed to a turn
// as its `policy`: the reference agent (aws-samples/sample-kokoro-tts-for-ai-agents: a regex
// split, each sentence waiting for the previous one's audio) and ours without the early first
// piece (docs/design/streaming-and-segmenter.md#turn-policies).
import type { PieceSplitter, PolicyPlanner } from '../pipeline/policies.ts';
import { SentenceSegmenter } from '../text/index.ts';

/** The reference agent's splitter: `(?<=[.!?])\s+` over the text so far, no other rules. */
export class RegexSentenceSplitter implements PieceSplitter {
  #buffer = '';

  push(delta: string): string[] {
    this.#buffer += delta;
    const parts = this.#buffer.split(/(?<=[.!?])\s+/);
    this.#buffer = parts.pop() ?? '';
    return parts.filter((p) => p.trim() !== '');
  }

  flush(): string[] {
    const rest = this.#buffer.trim();
    this.#buffer = '';
    return rest ? [rest] : [];
  }
}

/** The reference agent: regex split, each sentence sent after the previous one's audio. */
export const referencePolicy: PolicyPlanner = () => ({
  splitter: new RegexSentenceSplitter(),
  wholeAnswerFirst: false,
  waitForPreviousAudio: true,
});

/** Ours without the early first piece: what the early piece alone wins. */
export const streamNoEarlyFirstPolicy: PolicyPlanner = (language) => ({
  splitter: new SentenceSegmenter({ earlyFirstPiece: false, language }),
  wholeAnswerFirst: false,
  waitForPreviousAudio: false,
});
