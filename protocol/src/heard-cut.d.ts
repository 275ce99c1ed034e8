// Types of heard-cut.js (plain JavaScript, so that the page can load it without a build step).

/** A sentence of the turn's audio, in audio order, as the cut needs it. */
export interface HeardSentence {
  /** Its text as shown; word offsets and the cut's characters count in it. */
  text: string;
  /** Length of its audio, once known (the sentence ended); null or absent before. */
  durationMs?: number | null | undefined;
  /** Audio of it that reached the caller so far, in ms. */
  deliveredMs: number;
  /** Its words, when the container gave them: offsets into `text`, ms from the sentence's first sample. */
  words?: readonly { textEnd: number; endMs: number }[] | undefined;
  /** The container only estimated the word times (from token counts): they do not decide the cut. */
  wordsEstimated?: boolean | undefined;
}

export interface HeardCut {
  /** The first `whole` sentences were heard to their end. */
  whole: number;
  /** Characters heard of sentence `whole` (whole words); null when its audio had not started. */
  chars: number | null;
  /** Every sentence that reached the caller was heard to its end. */
  all: boolean;
}

export declare const DEFAULT_MS_PER_CHAR: number;
export declare function heardCut(sentences: readonly HeardSentence[], playedMs: number): HeardCut;
