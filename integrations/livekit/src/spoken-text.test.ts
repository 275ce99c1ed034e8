// Word times as LiveKit's timed transcript: the shown text (not the normalised one), whole, on the
// stream's clock in seconds.
import { describe, expect, test } from '@jest/globals';
import type { WordTiming } from '@kokoro-speech/protocol';
import { TimedWords, spokenText } from './spoken-text.ts';

/** Container-like word times for `spoken`: each word 100 ms, offsets into spoken. */
function wordsOf(spoken: string): WordTiming[] {
  return [...spoken.matchAll(/\S+/g)].map((m, i) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
    start_ms: i * 100,
    end_ms: i * 100 + 100,
  }));
}

describe('spokenText', () => {
  test('English is normalised (money as words), other text is sent as shown', () => {
    expect(spokenText('  It costs $5 today. ', true)).toMatchObject({
      shown: 'It costs $5 today.',
      spoken: 'It costs 5 dollars today.',
    });
    expect(spokenText('Cuesta $5.', false)).toEqual({ shown: 'Cuesta $5.', spoken: 'Cuesta $5.', map: null, lead: 0 });
    expect(spokenText('```\ncode\n```', true).spoken).toBe('');
  });
});

describe('TimedWords', () => {
  test('the strings together are the sentence as shown, with its punctuation', () => {
    const text = spokenText('"Well," she said, it costs $5 now.', true);
    expect(text.spoken).toBe('"Well," she said, it costs 5 dollars now.');
    const words = new TimedWords(text, 2, true);
    const joined = words.finish(words.add(wordsOf(text.spoken)), 0.8);
    expect(joined.map((t) => t.text).join('')).toBe('"Well," she said, it costs $5 now.');
    // "5 dollars" are two spoken words of one shown span: one string, timed from the first.
    expect(joined.map((t) => t.text)).toEqual(['"Well,"', ' she', ' said,', ' it', ' costs', ' $5', ' now.']);
    expect(joined.map((t) => t.startTime)).toEqual([2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.7]);
    expect(joined[5]!.endTime).toBeCloseTo(2.6);
  });

  test('words in several events; a later sentence starts with the space that parts it from the one before', () => {
    const text = spokenText('One two, three!', false);
    const words = new TimedWords(text, 0, false);
    const ws = wordsOf('One two, three');
    expect(words.add(ws.slice(0, 2)).map((t) => t.text)).toEqual([' One', ' two,']);
    const rest = words.finish(words.add(ws.slice(2)), 0.3);
    expect(rest.map((t) => t.text)).toEqual([' three!']); // the rest joins the last word
    const other = new TimedWords(text, 0, true);
    other.add(ws);
    expect(other.finish([], 0.3).map((t) => [t.text, t.startTime])).toEqual([['!', undefined]]);
    const whole = new TimedWords(text, 0, true);
    whole.add(wordsOf(text.spoken));
    expect(whole.finish([], 0.3)).toEqual([]); // nothing left to add
  });

  test('no word at all (a server without word timings): one string for the sentence, timed as a whole', () => {
    const words = new TimedWords(spokenText('A whole sentence.', false), 1.5, false);
    const [only, ...none] = words.finish([], 1.25);
    expect(none).toEqual([]);
    expect(only).toMatchObject({ text: ' A whole sentence.', startTime: 1.5, endTime: 2.75 });
  });
});
