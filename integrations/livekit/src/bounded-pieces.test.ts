// A tokenizer's long sentence is cut as the agent cuts one: no piece over maxChars, no text lost.
import { expect, test } from '@jest/globals';
import { SEGMENTER_DEFAULTS } from '@kokoro-speech/runtime/text';
import { boundedPieces } from './bounded-pieces.ts';

const words = (s: string) => s.split(/\s+/).filter(Boolean);

test('a long sentence: cut at clause marks or spaces, every piece within the bound, every word kept', () => {
  const text = Array.from({ length: 120 }, (_, k) => `word${k}${k % 9 === 8 ? ',' : ''}`).join(' ');
  const pieces = boundedPieces(text);
  expect(pieces.length).toBeGreaterThan(1);
  for (const p of pieces) expect(p.length).toBeLessThanOrEqual(SEGMENTER_DEFAULTS.maxChars);
  expect(pieces.flatMap(words)).toEqual(words(text));
  expect(pieces.slice(0, -1).every((p) => p.endsWith(','))).toBe(true);
});

test('64 KB without a space: hard cuts within the bound, never inside a surrogate pair', () => {
  const text = 'x'.repeat(249) + '🎉'.repeat(32_000);
  const pieces = boundedPieces(text);
  for (const p of pieces) {
    expect(p.length).toBeLessThanOrEqual(SEGMENTER_DEFAULTS.maxChars);
    expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  }
  expect(pieces.join('')).toBe(text);
});

test('a short sentence is one piece; whitespace alone is none', () => {
  expect(boundedPieces('  Hello there.  ')).toEqual(['Hello there.']);
  expect(boundedPieces('   ')).toEqual([]);
});
