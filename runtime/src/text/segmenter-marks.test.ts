// Inline lists, spaced ellipses and the boundary rules of issue 20 (the Golden Rules' faults),
// and that these decisions, which look ahead, still never depend on how the text was split.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { SentenceSegmenter, type SegmenterOptions } from './segmenter.ts';
import { readListMarker } from './segmenter-marks.ts';

/** Boundaries only: no merging of short sentences, no early first piece. */
const BOUNDARIES: SegmenterOptions = { earlyFirstPiece: false, minChars: 1, firstMinChars: 1, maxChars: 1000 };

function segment(text: string, options: SegmenterOptions = BOUNDARIES): string[] {
  const s = new SentenceSegmenter(options);
  return [...s.push(text), ...s.flush()];
}

describe('inline lists: the next marker starts a piece', () => {
  test.each<[string, string[]]>([
    ['1.) The first item 2.) The second item', ['1.) The first item', '2.) The second item']],
    ['1.) The first item. 2.) The second item.', ['1.) The first item.', '2.) The second item.']],
    ['1) The first item 2) The second item', ['1) The first item', '2) The second item']],
    ['1. The first item 2. The second item', ['1. The first item', '2. The second item']],
    ['1. The first item. 2. The second item.', ['1. The first item.', '2. The second item.']],
    ['• 9. The first item • 10. The second item', ['• 9. The first item', '• 10. The second item']],
    ['⁃9. The first item ⁃10. The second item', ['⁃9. The first item', '⁃10. The second item']],
    [
      'a. The first item b. The second item c. The third list item',
      ['a. The first item', 'b. The second item', 'c. The third list item'],
    ],
    // not a list: the line does not start with a marker, or the number is not the next one
    ['Pick 1) red or 2) blue today.', ['Pick 1) red or 2) blue today.']],
    ['1) The first item 3) Not the next one', ['1) The first item 3) Not the next one']],
  ])('%j', (text, expected) => {
    expect(segment(text)).toEqual(expected);
  });

  test('list items are cut even when short, like lines', () => {
    expect(segment('1) Eggs 2) Milk 3) Bread', {})).toEqual(['1) Eggs', '2) Milk', '3) Bread']);
  });

  test('reads markers, and waits while one may still be forming', () => {
    expect(readListMarker('2.) x', 0, false)).toEqual({ length: 3, style: 'n.)', value: 2 });
    expect(readListMarker('• 10. x', 0, false)).toEqual({ length: 5, style: '•n.', value: 10 });
    expect(readListMarker('b. x', 0, false)).toEqual({ length: 2, style: 'a.', value: 2 });
    expect(readListMarker('2.', 0, false)).toBeUndefined();
    expect(readListMarker('2.', 0, true)).toBeNull();
    expect(readListMarker('word ', 0, false)).toBeNull();
  });
});

describe('ellipses', () => {
  test.each<[string, string[]]>([
    ['It is all . . . I mean it.', ['It is all . . . I mean it.']], // a spaced ellipsis omits, never ends
    ['End with a period . . . . Next sentence.', ['End with a period . . . .', 'Next sentence.']],
    [
      'Into compounds. . . . The practice was not abandoned. . . .',
      ['Into compounds.', '. . . The practice was not abandoned. . . .'],
    ],
    ['"Bohr [...] used stairways [...]" (Smith 55).', ['"Bohr [...] used stairways [...]" (Smith 55).']],
    ['I never meant that.... She left.', ['I never meant that....', 'She left.']],
  ])('%j', (text, expected) => {
    expect(segment(text)).toEqual(expected);
  });
});

describe('abbreviations, acronyms and initials', () => {
  test.each<[string, string[]]>([
    ['I live in the U.S. How about you?', ['I live in the U.S.', 'How about you?']],
    ['I live in the E.U. How about you?', ['I live in the E.U.', 'How about you?']],
    ['I work for the U.S. Government in Virginia.', ['I work for the U.S. Government in Virginia.']],
    ['You can find it at N°. 1026.253.553. That is it.', ['You can find it at N°. 1026.253.553.', 'That is it.']],
    [
      'We make a good team, you and I. Did you see Albert I. Jones yesterday?',
      ['We make a good team, you and I.', 'Did you see Albert I. Jones yesterday?'],
    ],
    [
      'At 5 a.m. Mr. Smith went to the bank. He left at 6 P.M. Mr. Smith then went home.',
      ['At 5 a.m. Mr. Smith went to the bank.', 'He left at 6 P.M.', 'Mr. Smith then went home.'],
    ],
  ])('%j', (text, expected) => {
    expect(segment(text)).toEqual(expected);
  });

  test('no clause cut right after an abbreviation ("Mon., Jan. 12")', () => {
    // the early first piece cuts at the first clause boundary after 5 words: not after "Mon.,"
    expect(segment('Let us all meet on Mon., Jan. 12 at noon, then talk.', {})).toEqual([
      'Let us all meet on Mon., Jan. 12 at noon,',
      'then talk.',
    ]);
    expect(segment('We will all be off on Fri., Dec. 25 for the holiday, as usual.', {})).toEqual([
      'We will all be off on Fri., Dec. 25 for the holiday,',
      'as usual.',
    ]);
  });
});

const token = fc.constantFrom(
  ...['1.)', '2.)', '1)', '2)', '1.', '2.', 'a.', 'b.', '• ', '•', '⁃9.', '. . .', ' . . . .', '[...]', '(...)'],
  ...['U.S.', 'E.U.', 'N°.', 'I.', 'a.m.', 'P.M.', 'Mon.,', 'Jan.', 'How', 'The', 'Jones', 'At', '5', 'item'],
  ...[' ', ' ', '  ', '\n', '.', '!', ',', '"', '(', ')'],
);
const text = fc.array(token, { maxLength: 80 }).map((t) => t.join(''));

function spans(deltas: string[], options: SegmenterOptions): Array<[number, number]> {
  const s = new SentenceSegmenter(options);
  return [...deltas.flatMap((d) => s.pushSpans(d)), ...s.flushSpans()].map((p) => [p.start, p.end]);
}

describe('properties', () => {
  test('the new marks still give the same pieces however the text is split', () => {
    const options = fc.constantFrom<SegmenterOptions>(BOUNDARIES, {}, { minChars: 5, maxChars: 40 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 30 }), options, (s, cuts, opts) => {
        const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
        const parts = [0, ...at].map((from, k) => s.slice(from, [...at, s.length][k]));
        expect(spans(parts, opts)).toEqual(spans([s], opts));
        expect(spans([...s], opts)).toEqual(spans([s], opts));
      }),
      { numRuns: Number(process.env.SEGMENTER_PROPERTY_RUNS ?? 400) },
    );
  });
});
