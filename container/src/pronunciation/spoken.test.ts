// Markup into scripts: misaki's inline syntax, the SSML subset and the lexicon, with the way back
// from the shown text to the text as sent, checked against Kokoro's real vocabulary (the fixture's).
import { describe, expect, test } from '@jest/globals';
import { kokoroVocab } from '../fixture/tokenizer.ts';
import { Lexicon, parseLexicon } from './lexicon.ts';
import { PronunciationError } from './pronunciation-error.ts';
import { spokenText } from './spoken.ts';
import { looksLikeSsml } from './ssml.ts';

const symbols = new Set(Object.keys(kokoroVocab()));
const spoken = (text: string, ssml = false, lexicon?: Lexicon) => spokenText(text, { ssml, symbols, lexicon });
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PronunciationError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe("misaki's inline syntax", () => {
  test('the word is shown, spoken with the phonemes, and maps back to itself in the text as sent', () => {
    const text = 'Say [Kokoro](/kˈOkəɹO/) twice.';
    const s = spoken(text);
    expect(s.plain).toBe(false);
    expect(s.script.text).toBe('Say Kokoro twice.');
    expect(s.script.overrides).toEqual([{ start: 4, end: 10, phonemes: 'kˈOkəɹO' }]);
    const { start, end } = s.source(4, 10);
    expect(text.slice(start, end)).toBe('Kokoro');
    expect(text.slice(s.source(11, 16).start, s.source(11, 16).end)).toBe('twice');
  });

  test('stress forms speak the word as usual; other links stay as written; plain text stays plain', () => {
    expect(spoken('Destress [this](-2) and [that](+1).').script).toEqual({
      text: 'Destress this and that.',
      parts: [{ kind: 'text', start: 0, end: 23, rate: 1 }],
      overrides: [],
    });
    expect(spoken('See [the docs](https://example.com) now.').script.text).toBe(
      'See [the docs](https://example.com) now.',
    );
    expect(spoken('Nothing to see.').plain).toBe(true);
  });

  test('a long text (over what a call takes as arguments) keeps its map', () => {
    const text = `${'word '.repeat(40_000)}[end](/ˈɛnd/)`;
    const s = spoken(text);
    expect(s.script.text.length).toBe(200_003);
    expect(s.source(200_000, 200_003)).toEqual({ start: 200_001, end: 200_004 });
  });

  test("a symbol outside Kokoro's vocabulary is refused naming it and the markup", () => {
    const message = refusal(() => spoken('Hello [Zoë](/zoʊ☃i/).'));
    expect(message).toContain('"☃" (U+2603)');
    expect(message).toContain('[Zoë](/zoʊ☃i/)');
    expect(refusal(() => spoken('[x](//)'))).toContain('empty');
  });
});

describe('the SSML subset', () => {
  test('break, phoneme, sub, say-as and prosody become pauses, fixed spans and rates', () => {
    const ssml =
      '<speak>Hello <break time="700ms"/>world. <phoneme alphabet="ipa" ph="təmˈɑːtoʊ">tomato</phoneme> ' +
      '<sub alias="World Wide Web">WWW</sub> <say-as interpret-as="characters">abc</say-as> ' +
      '<prosody rate="slow">slowly</prosody> <say-as interpret-as="ordinal">21</say-as></speak>';
    const s = spoken(ssml, true);
    expect(s.script.text).toBe('Hello world. tomato WWW abc slowly 21');
    expect(s.script.parts).toEqual([
      { kind: 'text', start: 0, end: 6, rate: 1 },
      { kind: 'pause', ms: 700 },
      { kind: 'text', start: 6, end: 28, rate: 1 },
      { kind: 'text', start: 28, end: 34, rate: 0.75 },
      { kind: 'text', start: 34, end: 37, rate: 1 },
    ]);
    expect(s.script.overrides).toEqual([
      { start: 13, end: 19, phonemes: 'təmˈɑːtoʊ' },
      { start: 20, end: 23, say: 'World Wide Web' },
      { start: 24, end: 27, say: 'a b c' },
      { start: 35, end: 37, say: 'twenty-first' },
    ]);
    const www = s.source(20, 23);
    expect(ssml.slice(www.start, www.end)).toBe('WWW');
  });

  test('entities map back to their source; break strengths, seconds and the 10 s cap', () => {
    const ssml = '<speak>A &amp; B<break strength="strong"/>C<break time="1.5s"/>D<break time="20s"/></speak>';
    const s = spoken(ssml, true);
    expect(s.script.text).toBe('A & BCD');
    expect(s.script.parts.filter((p) => p.kind === 'pause')).toEqual([
      { kind: 'pause', ms: 750 },
      { kind: 'pause', ms: 1500 },
      { kind: 'pause', ms: 10_000 },
    ]);
    const amp = s.source(2, 3);
    expect(ssml.slice(amp.start, amp.end)).toBe('&amp;');
  });

  test('rates: percentages, relative percentages, numbers and words, nested ones multiplied', () => {
    const s = spoken(
      '<speak><prosody rate="150%">a <prosody rate="-20%">b</prosody></prosody> <prosody rate="0.8">c</prosody></speak>',
      true,
    );
    expect(s.script.parts).toEqual([
      { kind: 'text', start: 0, end: 2, rate: 1.5 },
      { kind: 'text', start: 2, end: 3, rate: 1.2 },
      { kind: 'text', start: 3, end: 4, rate: 1 },
      { kind: 'text', start: 4, end: 5, rate: 0.8 },
    ]);
  });

  test('malformed SSML is refused naming the line and column', () => {
    expect(refusal(() => spoken('<speak>\nHello <break time="1s">\n</speak>', true))).toMatch(
      /^SSML is not well-formed at line 3, column \d+: /,
    );
    expect(refusal(() => spoken('<speak>fish &chips;</speak>', true))).toMatch(/line 1, column \d+: undefined entity/);
  });

  test('unsupported elements and attributes are refused naming them and where they are', () => {
    expect(refusal(() => spoken('<speak>Hi\n  <emphasis>there</emphasis></speak>', true))).toBe(
      'SSML line 2, column 3 (offset 12): the element <emphasis> is not supported; supported: <speak>, <break>, <phoneme>, <sub>, <say-as>, <prosody>',
    );
    expect(refusal(() => spoken('<speak><prosody pitch="high">x</prosody></speak>', true))).toContain(
      'the attribute pitch of <prosody> is not supported',
    );
    expect(refusal(() => spoken('<voice>x</voice>', true))).toContain('the root element must be <speak>');
    expect(refusal(() => spoken('<speak><phoneme alphabet="x-sampa" ph="t@">x</phoneme></speak>', true))).toContain(
      'alphabet="x-sampa"',
    );
    expect(refusal(() => spoken('<speak><sub alias="x"><break/>y</sub></speak>', true))).toContain(
      '<sub> may contain only text',
    );
  });

  test('bad values are refused naming them', () => {
    expect(refusal(() => spoken('<speak><break time="soon"/></speak>', true))).toContain('<break time="soon">');
    expect(refusal(() => spoken('<speak><phoneme ph="t☃">x</phoneme></speak>', true))).toContain('"☃" (U+2603)');
    expect(refusal(() => spoken('<speak><say-as interpret-as="currency">$5</say-as></speak>', true))).toContain(
      'interpret-as="currency"',
    );
    expect(refusal(() => spoken('<speak><prosody rate="zippy">x</prosody></speak>', true))).toContain('rate="zippy"');
  });

  test('inline syntax works inside SSML text; tie bars become Kokoro symbols', () => {
    const s = spoken('<speak>Meet [Kokoro](/kˈOkəɹO/) and <phoneme ph="t͡ʃiz">cheese</phoneme></speak>', true);
    expect(s.script.overrides).toEqual([
      { start: 5, end: 11, phonemes: 'kˈOkəɹO' },
      { start: 16, end: 22, phonemes: 'ʧiz' },
    ]);
  });

  test('an input is taken for SSML when its root is <speak>', () => {
    expect(looksLikeSsml('  <speak>hi</speak>')).toBe(true);
    expect(looksLikeSsml('<?xml version="1.0"?>\n<speak version="1.1">hi</speak>')).toBe(true);
    expect(looksLikeSsml('I <speak> softly')).toBe(false);
    expect(looksLikeSsml('<speaker>')).toBe(false);
  });
});

describe('the lexicon in a text', () => {
  const lexicon = new Lexicon(
    parseLexicon(
      JSON.stringify({
        entries: [
          { word: 'Kokoro', phonemes: 'kˈOkəɹO' },
          { word: 'Kokoro Speech', say: 'ko ko ro speech' },
          { word: 'AWS', say: 'A W S', case: 'exact' },
          { word: 'C++', say: 'C plus plus' },
        ],
      }),
      'test',
    ),
    symbols,
  );

  test('case-insensitive by default, exact when asked, whole words only, the longest phrase winning', () => {
    const s = spoken('kokoro speech uses KOKORO on AWS, not aws; Kokorology; C++ too.', false, lexicon);
    expect(s.script.overrides).toEqual([
      { start: 0, end: 13, say: 'ko ko ro speech' },
      { start: 19, end: 25, phonemes: 'kˈOkəɹO' },
      { start: 29, end: 32, say: 'A W S' },
      { start: 55, end: 58, say: 'C plus plus' },
    ]);
  });

  test('spans fixed by markup are left alone, and a phrase does not run over a pause', () => {
    const s = spoken('<speak><sub alias="Koko">Kokoro</sub> Kokoro <break/>Speech</speak>', true, lexicon);
    expect(s.script.overrides).toEqual([
      { start: 0, end: 6, say: 'Koko' },
      { start: 7, end: 13, phonemes: 'kˈOkəɹO' },
    ]);
  });
});
