// Regression (issue 27): an inline pronunciation in a span that does not start the text (after a
// list marker, a quote, a heading, in a later table cell or line) threw "SpeechBuilder: source
// range [7, 6)": the engine took the match's offsets as the whole text's and subtracted the span's
// start a second time.
import { describe, expect, test } from '@jest/globals';
import { normalizeForSpeech, sourceRange } from '../normalize.ts';
import { LANGUAGES, rulesFor } from './languages.ts';
import { speakInline } from './rules.ts';
import { SpeechBuilder } from '../speech-map.ts';

const KEPT = '[Kokoro](/kˈOkəɹO/)';

const SHAPES: Array<[string, string]> = [
  ['a list item', `- Meet ${KEPT}.`],
  ['a starred list item', `* Meet ${KEPT}.`],
  ['a quote', `> Meet ${KEPT}.`],
  ['a heading', `## Meet ${KEPT}`],
  ['a second table cell', `| Name | ${KEPT} |`],
  ['a later line', `First line.\nMeet ${KEPT}.`],
  ['a nested quote and list', `> > - [x] Meet ${KEPT} and [New York](/nˈu jˈɔɹk/).`],
];

describe.each(LANGUAGES.map((l) => [l]))('inline pronunciation after block markup (%s)', (language) => {
  test.each(SHAPES)('in %s: passed on intact, its word mapped to itself', (_shape, text) => {
    const n = normalizeForSpeech(text, { language });
    expect(n.spoken).toContain(KEPT);
    const at = n.spoken.indexOf('Kokoro');
    const { start, end } = sourceRange(text, n, at, at + 'Kokoro'.length);
    expect(text.slice(start, end)).toBe('Kokoro');
    // the segments tile the source, in order
    let source = 0;
    for (const s of n.segments) {
      expect(s.sourceStart).toBe(source);
      source = s.sourceEnd;
    }
    expect(source).toBe(text.length);
  });
});

test('the engine: a kept match in a span that starts past 0 maps onto the span', () => {
  const source = 'xxxxx Meet [Kokoro](/kˈOkəɹO/) now';
  const b = new SpeechBuilder();
  b.add(0, 6, '');
  speakInline(rulesFor('en'), b, source, 6, source.length);
  const n = b.finish();
  expect(n.spoken).toBe('Meet [Kokoro](/kˈOkəɹO/) now');
  const kept = n.segments.find((s) => n.spoken.slice(s.spokenStart, s.spokenEnd) === 'Kokoro')!;
  expect(source.slice(kept.sourceStart, kept.sourceEnd)).toBe('Kokoro');
});
