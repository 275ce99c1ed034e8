// Pushed text to sentences in the ledger: the project's segmenter (each sentence the moment it is
// complete; the first of a segment may end at a clause), or a LiveKit tokenizer when the caller
// gives one. A flush ends the segment; a sentence with nothing to speak (a code block) is skipped.
import type { tokenize } from '@livekit/agents';
import { SentenceSegmenter, type SegmenterLanguage } from '@kokoro-speech/runtime/text';
import type { Ledger } from './ledger.ts';
import { boundedPieces } from './bounded-pieces.ts';
import { spokenText } from './spoken-text.ts';

export interface Feed {
  push(text: string): void;
  flush(): void;
  /** The input has ended: what is left becomes the last segment, then the ledger ends. */
  end(): void;
  /** The stream was closed: drop what is not cut yet. */
  close(): void;
}

export interface FeedOptions {
  tokenizer: tokenize.SentenceTokenizer | undefined;
  normalize: boolean;
  /** The voice's language: the segmenter's and the normaliser's rules. */
  textLanguage: SegmenterLanguage;
  /** The tokenizer's stream failed: the feed has ended, and the stream must fail with this. */
  onError?: (error: unknown) => void;
}

function adder(ledger: Ledger, o: FeedOptions): (text: string) => void {
  return (text) => {
    for (const piece of boundedPieces(text)) {
      const t = spokenText(piece, o.normalize, o.textLanguage);
      if (t.spoken !== '') ledger.add(t);
    }
  };
}

export function createFeed(ledger: Ledger, o: FeedOptions): Feed {
  return o.tokenizer ? tokenizerFeed(ledger, o.tokenizer, adder(ledger, o), o.onError) : segmenterFeed(ledger, o);
}

/** All of one text at once (synthesize()). */
export function fillLedger(ledger: Ledger, text: string, o: FeedOptions): void {
  if (o.tokenizer) {
    const add = adder(ledger, o);
    for (const sentence of o.tokenizer.tokenize(text)) add(sentence);
    ledger.end();
    return;
  }
  const feed = segmenterFeed(ledger, o);
  feed.push(text);
  feed.end();
}

function segmenterFeed(ledger: Ledger, o: FeedOptions): Feed {
  const segmenter = new SentenceSegmenter({ language: o.textLanguage });
  const add = adder(ledger, o);
  const flush = () => {
    for (const piece of segmenter.flushSpans()) add(piece.text);
    ledger.closeSegment();
  };
  return {
    push: (text) => {
      for (const piece of segmenter.pushSpans(text)) add(piece.text);
    },
    flush,
    end: () => {
      flush();
      ledger.end();
    },
    close: () => ledger.end(),
  };
}

/**
 * LiveKit's sentence streams are asynchronous and mark a flush only by the next token's new
 * segment id, so a segment is known to have ended when the next one starts or the input ends.
 */
function tokenizerFeed(
  ledger: Ledger,
  tokenizer: tokenize.SentenceTokenizer,
  add: (text: string) => void,
  onError: (error: unknown) => void = () => {},
): Feed {
  const stream = tokenizer.stream();
  void (async () => {
    let segment: string | undefined;
    for await (const token of stream) {
      if (segment !== undefined && token.segmentId !== segment) ledger.closeSegment();
      segment = token.segmentId;
      add(token.token);
    }
    ledger.end();
  })().catch((error: unknown) => {
    onError(error);
    ledger.end();
  });
  const live = (f: () => void) => {
    if (!stream.closed) f();
  };
  return {
    push: (text) => live(() => stream.pushText(text)),
    flush: () => live(() => stream.flush()),
    end: () => live(() => stream.endInput()),
    close: () => live(() => stream.close()),
  };
}
