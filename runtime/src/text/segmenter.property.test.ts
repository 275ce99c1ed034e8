// SentenceSegmenter's properties over random texts and random splits of them into deltas: the cuts
// never depend on how the text was split, and the pieces cover the text.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { SentenceSegmenter, type Piece, type SegmenterOptions } from './segmenter.ts';

function spans(deltas: string[], options?: SegmenterOptions): Piece[] {
  const s = new SentenceSegmenter(options);
  const out = deltas.flatMap((d) => s.pushSpans(d));
  return [...out, ...s.flushSpans()];
}

// Texts built from pieces that exercise every rule, plus arbitrary strings.
const token = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'word',
      'the',
      'Dr.',
      'e.g.',
      'U.S.',
      'a.m.',
      '$29.99',
      '$29.',
      'v1.2.3',
      '10:30',
      'https://x.io/a.b?c=1',
      'a@b.co',
      '...',
      '…',
      '1.',
      '- ',
      '* ',
      '# ',
      '```',
      '~~~',
      '"',
      '(',
      ')',
      '“',
      '”',
      '**',
      'No.',
      'I.',
    ),
  },
  { weight: 6, arbitrary: fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\n\n', '\t', '\r\n') },
  { weight: 4, arbitrary: fc.constantFrom('.', '!', '?', ',', ';', ':', ' - ', '—', '?!') },
  { weight: 3, arbitrary: fc.constantFrom('Next', 'And', 'it', 'we', '42', 'Ünïcode', '😀') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 4, unit: 'binary' }) }, // any code units, lone surrogates too
);
const text = fc.array(token, { maxLength: 120 }).map((t) => t.join(''));
const options = fc.record({
  earlyFirstPiece: fc.boolean(),
  firstMinWords: fc.integer({ min: 1, max: 8 }),
  minChars: fc.integer({ min: 1, max: 30 }),
  maxChars: fc.integer({ min: 30, max: 120 }),
});

function split(s: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let from = 0;
  for (const c of at) {
    parts.push(s.slice(from, c));
    from = c;
  }
  parts.push(s.slice(from));
  return parts;
}

describe('properties', () => {
  test('pieces plus the whitespace between them equal the input', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 40 }), options, (s, cuts, opts) => {
        const pieces = spans(split(s, cuts), opts);
        let at = 0;
        for (const p of pieces) {
          expect(p.text).not.toBe('');
          expect(p.text).toBe(s.slice(p.start, p.end));
          expect(p.text.trim()).toBe(p.text);
          expect(s.slice(at, p.start).trim()).toBe('');
          at = p.end;
        }
        expect(s.slice(at).trim()).toBe('');
        expect(pieces.map((p) => p.index)).toEqual(pieces.map((_, i) => i));
      }),
      { numRuns: 300 },
    );
  });

  test('pieces never depend on how the text was split into deltas, first piece included', () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 40 }), options, (s, cuts, opts) => {
        expect(spans(split(s, cuts), opts)).toEqual(spans([s], opts));
      }),
      { numRuns: 300 },
    );
  });

  test('one character at a time gives the same pieces as one push', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(spans([...s].flatMap((ch) => ch.split('')))).toEqual(spans([s]));
      }),
      { numRuns: 150 },
    );
  });

  test('pieces outside code fences stay within maxChars', () => {
    fc.assert(
      fc.property(text, options, (s, opts) => {
        for (const p of spans([s], opts)) {
          if (!p.text.includes('```') && !p.text.includes('~~~'))
            expect(p.text.length).toBeLessThanOrEqual(opts.maxChars);
        }
      }),
      { numRuns: 300 },
    );
  });
});
