// What the prep workers are given to speak: a plain text to show (the words' text) and parts of it,
// with pauses between them, a rate per part, and spans whose pronunciation is fixed by the caller
// (a lexicon entry, misaki's inline syntax, an SSML <phoneme>, <sub> or <say-as>). Built on the
// main thread (pronunciation/), plain data so that it crosses to a worker thread as it is.

/** A span of the script's text spoken otherwise than its letters say. */
export interface SpanOverride {
  /** Offsets into Script.text, [start, end). */
  start: number;
  end: number;
  /** Kokoro phonemes, already checked against the vocabulary. */
  phonemes?: string;
  /** Text phonemised instead of the span (a respelling, an alias, a say-as expansion). */
  say?: string;
}

export type ScriptPart =
  /** Script.text[start, end) spoken at `rate` times the utterance's speed. */
  | { kind: 'text'; start: number; end: number; rate: number }
  /** Silence of `ms` milliseconds. */
  | { kind: 'pause'; ms: number };

export interface Script {
  /** What is shown: the text without markup (word offsets of prepared pieces point into it). */
  text: string;
  parts: ScriptPart[];
  /** In text order, not overlapping. */
  overrides: SpanOverride[];
}

/** A plain text as a script: one part, nothing fixed. */
export function plainScript(text: string): Script {
  return { text, parts: [{ kind: 'text', start: 0, end: text.length, rate: 1 }], overrides: [] };
}
