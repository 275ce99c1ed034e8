// The heard-cut rule as both the agent and the page apply it: positions to sentences and characters.
import { describe, expect, test } from '@jest/globals';
import { DEFAULT_MS_PER_CHAR, heardCut, type HeardSentence } from './heard-cut.js';

const A = 'One two three.';
const B = ' Four five six seven eight.';
const two: HeardSentence[] = [
  { text: A, durationMs: 1000, deliveredMs: 1000 },
  { text: B, durationMs: 1000, deliveredMs: 1000 },
];

describe('heardCut', () => {
  test.each<[number, number, number | null, boolean]>([
    [0, 0, null, false], // at the very start nothing of the first sentence played yet
    [1, 0, 0, false],
    [999, 0, 'One two'.length, false], // 13 of 14 characters: mid-word, back to the last whole word
    [1000, 1, null, false],
    [1500, 1, ' Four five'.length, false], // 13 of 27 characters: mid-word, back to " Four five"
    [2000, 2, null, true],
    [9000, 2, null, true],
  ])('at %d ms: %d whole, %s characters of the next (all: %s)', (ms, whole, chars, all) => {
    expect(heardCut(two, ms)).toEqual({ whole, chars, all });
  });

  test('text without spaces (Japanese, Chinese) is cut at a character, not back to its start', () => {
    const zh = [{ text: '我们明天一起去看电影。', durationMs: 1100, deliveredMs: 1100 }];
    expect(heardCut(zh, 500)).toEqual({ whole: 0, chars: 5, all: false });
    // mixed: a Latin word is still cut back to its start
    const mixed = [{ text: '我们看Avatar电影。', durationMs: 1100, deliveredMs: 1100 }];
    expect(heardCut(mixed, 500).chars).toBe(3);
  });

  test('exact word timings decide within the sentence; estimated ones do not', () => {
    const words = [
      { textEnd: 4, endMs: 300 },
      { textEnd: 9, endMs: 700 },
      { textEnd: 13, endMs: 900 },
    ];
    const timed = [{ text: 'Four five six.', durationMs: 1000, deliveredMs: 1000, words }];
    expect(heardCut(timed, 650).chars).toBe(4);
    expect(heardCut(timed, 700).chars).toBe(9);
    expect(heardCut(timed, 200).chars).toBe(0);
    // 65% of 14 characters is 9: "Four five", where the timings would have said "Four".
    expect(heardCut([{ ...timed[0]!, wordsEstimated: true }], 650).chars).toBe('Four five'.length);
    expect(heardCut([{ ...timed[0]!, words: [] }], 650).chars).toBe('Four five'.length);
  });

  test('a sentence still arriving lasts at least what was delivered, at the turn speaking rate', () => {
    // 1000 ms for 14 characters: 27 take ~1929 ms, whatever less was delivered.
    const partly = [two[0]!, { text: B, durationMs: null, deliveredMs: 400 }];
    expect(heardCut(partly, 1000 + 1929 / 2)).toEqual({ whole: 1, chars: ' Four five'.length, all: false });
    // Delivered beyond the estimate: what was delivered is how long it lasts.
    expect(heardCut([two[0]!, { text: B, deliveredMs: 3000 }], 3999)).toMatchObject({ whole: 1 });
    // No sentence complete: Kokoro's usual pace.
    const first = heardCut([{ text: A, deliveredMs: 10 }], A.length * DEFAULT_MS_PER_CHAR * 0.4);
    expect(first).toEqual({ whole: 0, chars: 'One'.length, all: false });
  });

  test('a sentence with no audio delivered stops the cut there: nothing after it was heard', () => {
    const undelivered = [two[0]!, { text: B, deliveredMs: 0 }, { text: A, durationMs: 500, deliveredMs: 500 }];
    expect(heardCut(undelivered, 60_000)).toEqual({ whole: 1, chars: null, all: true });
    expect(heardCut([], 500)).toEqual({ whole: 0, chars: null, all: true });
  });
});
