import { describe, expect, test } from '@jest/globals';
import { alignWords, wordsOf } from './word-align.ts';
import { framesFromDurations, pieceWordTimings, roundHalfEven } from './word-timings.ts';

/** One token per character, as Kokoro's vocabulary gives (spaces and punctuation are tokens too). */
const perChar = (phonemes: string) => [...phonemes].map(() => 1);

describe('alignWords', () => {
  test('words espeak-ng merged into one phoneme word get their own tokens', () => {
    const text = 'out of the box';
    const phonemes = 'aʊt ʌvðə bˈɑːks';
    const words = wordsOf(text);
    const map = alignWords(words, phonemes, perChar(phonemes), ['ˈaʊt', 'ˈʌv', 'ðˈə', 'bˈɑːks']);
    const spoken = map.map((w) => [...phonemes].slice(w.tokenStart, w.tokenEnd).join(''));
    expect(spoken).toEqual(['aʊt', 'ʌv', 'ðə', 'bˈɑːks']);
  });

  test('a number spoken as several phoneme words is one word; punctuation and spaces belong to none', () => {
    const text = 'I have 25 apples, really.';
    const phonemes = 'aɪ hæv twˈɛnti fˈaɪv ˈæpəlz, ɹˈiəli.';
    const words = wordsOf(text);
    expect(words.map((w) => w.text)).toEqual(['I', 'have', '25', 'apples,', 'really.']);
    const map = alignWords(words, phonemes, perChar(phonemes), ['ˈaɪ', 'hˈæv', 'twˈɛnti fˈaɪv', 'ˈæpəlz', 'ɹˈiəli']);
    const spoken = map.map((w) => [...phonemes].slice(w.tokenStart, w.tokenEnd).join(''));
    expect(spoken).toEqual(['aɪ', 'hæv', 'twˈɛnti fˈaɪv', 'ˈæpəlz', 'ɹˈiəli']);
  });

  test('characters the vocabulary drops have no token; ranges stay ordered and inside the piece', () => {
    const phonemes = 'hə?lˈoʊ wˈɜːld';
    const counts = [...phonemes].map((ch) => (ch === '?' ? 0 : 1));
    const map = alignWords(wordsOf('hello world'), phonemes, counts, ['həlˈoʊ', 'wˈɜːld']);
    expect(map.map((w) => [w.tokenStart, w.tokenEnd])).toEqual([
      [0, 6],
      [7, 13],
    ]);
  });

  test('a word whose sounds merged away entirely is empty, where the previous word ended', () => {
    const map = alignWords(wordsOf('a b'), 'ab', [1, 1], ['ab', '']);
    expect(map[1]!.tokenStart).toBe(map[1]!.tokenEnd);
    expect(map[1]!.tokenStart).toBe(map[0]!.tokenEnd);
  });

  test('offsets point into the utterance text', () => {
    expect(wordsOf('Hi there — you!', 10)).toEqual([
      { start: 10, end: 12, text: 'Hi' },
      { start: 13, end: 18, text: 'there' },
      { start: 21, end: 25, text: 'you!' },
    ]);
  });
});

describe('word times from durations', () => {
  test('ONNX Round: halves go to the even neighbour; frames are at least 1', () => {
    expect([0.5, 1.5, 2.5, 3.5, 4.5, 2.4, 2.6].map(roundHalfEven)).toEqual([0, 2, 2, 4, 4, 2, 3]);
    expect(framesFromDurations(Float32Array.from([0.2, 2.5, 3.75]))).toEqual([1, 2, 4]);
    expect(framesFromDurations(BigInt64Array.from([0n, 3n]))).toEqual([1, 3]);
  });

  test('exact: samples per frame come from this run, word edges fall on token edges', () => {
    // pad, 4 tokens, pad: frames 2,3,1,4,2,3 = 15 frames; 15 * 500 samples (a made-up export)
    const frames = [2, 3, 1, 4, 2, 3];
    const words = [
      { start: 0, end: 2, tokenStart: 0, tokenEnd: 2 },
      { start: 3, end: 5, tokenStart: 3, tokenEnd: 4 },
    ];
    const t = pieceWordTimings(words, 4, 15 * 500, frames);
    expect(t.estimated).toBe(false);
    expect(t.words.map((w) => [w.startSample, w.endSample])).toEqual([
      [2 * 500, 6 * 500],
      [10 * 500, 12 * 500],
    ]);
  });

  test('estimated: every token (pads included) taken as equally long, and said so', () => {
    const words = [{ start: 0, end: 1, tokenStart: 1, tokenEnd: 3 }];
    const t = pieceWordTimings(words, 4, 600, null);
    expect(t.estimated).toBe(true);
    expect(t.words[0]).toMatchObject({ startSample: 200, endSample: 400 });
    // A durations array of the wrong length is not trusted.
    expect(pieceWordTimings(words, 4, 600, [1, 2, 3]).estimated).toBe(true);
  });
});
