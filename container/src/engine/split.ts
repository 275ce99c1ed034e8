// Where to cut text that does not fit the model in one run. Sentences first (Intl.Segmenter, not
// kokoro-js's TextSplitterStream, which can loop on a newline after a URL), then halves at the
// clause boundary nearest the middle, then at the space nearest the middle, then hard halves.

const segmenters = new Map<string, Intl.Segmenter>();
/** ICU's sentence rules are the same for every locale here (danda and 。 end sentences too). */
const sentenceSegmenter = (locale: string): Intl.Segmenter => {
  let s = segmenters.get(locale);
  if (!s) segmenters.set(locale, (s = new Intl.Segmenter(locale, { granularity: 'sentence' })));
  return s;
};

export function sentences(text: string): string[] {
  return sentenceSpans(text).map((s) => s.text);
}

/** A trimmed part of a text and where it starts in it. */
export interface Span {
  text: string;
  start: number;
}

/** The sentences of `text`, trimmed, with their offsets (`locale`: the text's BCP 47 language). */
export function sentenceSpans(text: string, locale = 'en'): Span[] {
  const out: Span[] = [];
  for (const { segment, index } of sentenceSegmenter(locale).segment(text)) {
    const trimmed = segment.trim();
    if (trimmed) out.push({ text: trimmed, start: index + segment.indexOf(trimmed) });
  }
  return out;
}

function nearestToMiddle(text: string, pattern: RegExp): number | undefined {
  const middle = text.length / 2;
  let best: number | undefined;
  for (const match of text.matchAll(pattern)) {
    const cut = match.index + match[0].length;
    if (cut <= 0 || cut >= text.length) continue;
    if (best === undefined || Math.abs(cut - middle) < Math.abs(best - middle)) best = cut;
  }
  return best;
}

/** Two non-empty halves of `text` (which has at least two characters). */
export function halve(text: string): [string, string] {
  const [a, b] = halveSpan({ text, start: 0 });
  return [a.text, b.text];
}

/** halve() keeping offsets. */
export function halveSpan(span: Span): [Span, Span] {
  const { text } = span;
  const cut =
    nearestToMiddle(text, /[,;:—–](?=\s)|\s[-–—]\s/g) ?? nearestToMiddle(text, /\s+/g) ?? Math.ceil(text.length / 2);
  const part = (from: number, to: number): Span => {
    const raw = text.slice(from, to);
    const trimmed = raw.trim();
    return { text: trimmed, start: span.start + from + (trimmed ? raw.indexOf(trimmed) : 0) };
  };
  return [part(0, cut), part(cut, text.length)];
}
