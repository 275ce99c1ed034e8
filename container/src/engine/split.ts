// Where to cut text that does not fit the model in one run. Sentences first (Intl.Segmenter, not
// kokoro-js's TextSplitterStream, which can loop on a newline after a URL), then halves at the
// clause boundary nearest the middle, then at the space nearest the middle, then hard halves.

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const { segment } of sentenceSegmenter.segment(text)) {
    if (segment.trim()) out.push(segment.trim());
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
  const cut =
    nearestToMiddle(text, /[,;:—–](?=\s)|\s[-–—]\s/g) ?? nearestToMiddle(text, /\s+/g) ?? Math.ceil(text.length / 2);
  return [text.slice(0, cut).trim(), text.slice(cut).trim()];
}
