// SentenceSegmenter: fixture texts with known cut points (the properties over random splits:
// segmenter.property.test.ts).
import { describe, expect, test } from '@jest/globals';
import { SentenceSegmenter, SEGMENTER_DEFAULTS, type Piece, type SegmenterOptions } from './segmenter.ts';

function segment(text: string, options?: SegmenterOptions): string[] {
  const s = new SentenceSegmenter(options);
  return [...s.push(text), ...s.flush()];
}

function spans(deltas: string[], options?: SegmenterOptions): Piece[] {
  const s = new SentenceSegmenter(options);
  const out = deltas.flatMap((d) => s.pushSpans(d));
  return [...out, ...s.flushSpans()];
}

// Later-piece fixtures start with a first sentence so that the early first-piece cut is out of the way.
const LEAD = 'Here is the answer. ';
const later = (text: string): string[] => segment(LEAD + text).slice(1);

describe('sentence ends', () => {
  test.each<[string, string[]]>([
    ['It works. Next one is here.', ['It works. Next one is here.']], // "It works." < 20 chars: merged
    ['This sentence is long enough. And so is this one.', ['This sentence is long enough.', 'And so is this one.']],
    ['Is this long enough to stand? Yes it is, surely.', ['Is this long enough to stand?', 'Yes it is, surely.']],
    ['What a wonderful day it is!! Shall we go out?', ['What a wonderful day it is!!', 'Shall we go out?']],
    ['The total comes to exactly $29. Next we pay it.', ['The total comes to exactly $29.', 'Next we pay it.']],
    ['The total comes to exactly $29.99 today for you.', ['The total comes to exactly $29.99 today for you.']],
    [
      'Please upgrade to version v1.2.3 before Friday. It fixes it.',
      ['Please upgrade to version v1.2.3 before Friday.', 'It fixes it.'],
    ],
    [
      'We will meet at 10:30 in the big room. Bring coffee.',
      ['We will meet at 10:30 in the big room.', 'Bring coffee.'],
    ],
    ['We will meet at 10 a.m. tomorrow in the big room.', ['We will meet at 10 a.m. tomorrow in the big room.']],
    ['We will meet tomorrow at 10 a.m. Then we will eat.', ['We will meet tomorrow at 10 a.m.', 'Then we will eat.']],
    ['Ask Dr. Smith and Mr. Jones about it, e.g. Monday.', ['Ask Dr. Smith and Mr. Jones about it, e.g. Monday.']],
    ['The U.S. Army arrived there in force.', ['The U.S. Army arrived there in force.']],
    [
      'Read the docs at https://example.com/a.b?x=1 first. Then ask.',
      ['Read the docs at https://example.com/a.b?x=1 first.', 'Then ask.'],
    ],
    [
      'Send mail to jane.doe@example.co.uk today. She replies fast.',
      ['Send mail to jane.doe@example.co.uk today.', 'She replies fast.'],
    ],
    [
      'Please visit example.com. It has everything you need.',
      ['Please visit example.com.', 'It has everything you need.'],
    ],
    ['Well... maybe we could go there later on.', ['Well... maybe we could go there later on.']],
    ['I was thinking about it a lot… Then it came to me.', ['I was thinking about it a lot…', 'Then it came to me.']],
    ['She said "Stop. Now." and left the room quietly.', ['She said "Stop. Now." and left the room quietly.']],
    ['She said it very loudly: "Go now." Then she left.', ['She said it very loudly: "Go now."', 'Then she left.']],
    [
      'It was sunny all day long (as forecast.) Then it rained.',
      ['It was sunny all day long (as forecast.)', 'Then it rained.'],
    ],
    [
      'The effect is well known (see Fig. 3. It is big) anyway.',
      ['The effect is well known (see Fig. 3. It is big) anyway.'],
    ],
    ['This is **really important.** Do not forget it.', ['This is **really important.**', 'Do not forget it.']],
    ['Look at item No. 5 in the list please.', ['Look at item No. 5 in the list please.']],
    ['No. I do not think that is right at all.', ['No. I do not think that is right at all.']], // "No." short: merged
    ['Apples, pears, etc. are all fruit to me.', ['Apples, pears, etc. are all fruit to me.']],
    ['Apples, pears, bananas, etc. Many more exist.', ['Apples, pears, bananas, etc.', 'Many more exist.']],
    ['Pi is roughly 3.14159 and e is 2.718 or so.', ['Pi is roughly 3.14159 and e is 2.718 or so.']],
    ['In 1990. the year was strange; it went on.', ['In 1990. the year was strange; it went on.']],
  ])('%j', (text, expected) => {
    expect(later(text)).toEqual(expected);
  });
});

describe('newlines and markdown', () => {
  test.each<[string, string[]]>([
    ['First paragraph\nSecond paragraph', ['First paragraph', 'Second paragraph']],
    ['Shopping list:\n- Eggs\n- Milk\n* Bread\n', ['Shopping list:', '- Eggs', '- Milk', '* Bread']],
    [
      'Steps:\n1. Open the box.\n2. Take it out.\n10. Enjoy',
      ['Steps:', '1. Open the box.', '2. Take it out.', '10. Enjoy'],
    ],
    ['# Heading\n\nBody text here.', ['# Heading', 'Body text here.']],
    [
      'Code:\n```ts\nconst a = 1. \nb();\n\n```\nDone now.',
      ['Code:', '```ts\nconst a = 1. \nb();\n\n```', 'Done now.'],
    ],
    ['Tilde:\n~~~\nx. Y\n~~~\nEnd', ['Tilde:', '~~~\nx. Y\n~~~', 'End']],
    ['Unclosed:\n```\nx = 1\ny = 2', ['Unclosed:', '```\nx = 1\ny = 2']],
    ['Indented:\n    ```\nx. Y\nz', ['Indented:', '```', 'x. Y', 'z']], // 4 spaces: not a fence
    ['A table:\n| a | b |\n|---|---|\n| 1 | 2 |', ['A table:', '| a | b |', '|---|---|', '| 1 | 2 |']],
    ['Yes.\nNo.', ['Yes.', 'No.']], // newlines cut even below minChars
    ['It is a dash - used here in a long sentence - fine.', ['It is a dash - used here in a long sentence - fine.']],
    ['  - indented bullet\n  - another', ['- indented bullet', '- another']],
  ])('%j', (text, expected) => {
    expect(later(text)).toEqual(expected);
  });
});

describe('first piece', () => {
  test.each<[string, string[]]>([
    [
      'Sure, I can help you with that, and here is how. Step one.',
      ['Sure, I can help you with that,', 'and here is how. Step one.'],
    ],
    ['Yes, it is, true. Next thing.', ['Yes, it is, true.', 'Next thing.']], // no clause after 5 words
    ['The short answer to that is: no. Here is why.', ['The short answer to that is:', 'no. Here is why.']],
    ['Paris is the capital of France; it is lovely.', ['Paris is the capital of France;', 'it is lovely.']],
    ['Paris is the capital of France — it is lovely.', ['Paris is the capital of France —', 'it is lovely.']],
    ['Sure! Let me explain how this works, step by step.', ['Sure!', 'Let me explain how this works, step by step.']],
    ['Hi. Let me explain how this works.', ['Hi. Let me explain how this works.']], // "Hi." < 5 chars
    ['The price is 1,299 dollars and 50 cents today.', ['The price is 1,299 dollars and 50 cents today.']],
    ['She said "one, two, three, four, five, six" slowly.', ['She said "one, two, three, four, five, six" slowly.']],
  ])('%j', (text, expected) => {
    expect(segment(text)).toEqual(expected);
  });

  test('the early cut can be disabled or tuned', () => {
    const text = 'Sure, I can help you with that, and here is how.';
    expect(segment(text, { earlyFirstPiece: false })).toEqual([text]);
    expect(segment(text, { firstMinWords: 1 })).toEqual(['Sure,', 'I can help you with that, and here is how.']);
    expect(segment('Ok. Go on then, please do.', { firstMinChars: 2 })).toEqual(['Ok.', 'Go on then, please do.']);
  });

  test('marks pieces with index and first', () => {
    const pieces = spans(['Sure! This is the second sentence. ', 'And this is the third one.']);
    expect(pieces.map((p) => [p.index, p.first])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
  });
});

describe('long sentences', () => {
  const long =
    'This sentence goes on and on, with one clause after another clause, ' +
    'and then some more words to make it long; it keeps going without any full stop at all';
  test('cut at a clause boundary below maxChars', () => {
    const pieces = segment(LEAD + long + '.', { maxChars: 80 }).slice(1);
    expect(pieces.join(' ')).toBe(long + '.');
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(80);
    expect(segment(LEAD + long + '.', { maxChars: 80 }).slice(1)).toEqual([
      'This sentence goes on and on, with one clause after another clause,',
      'and then some more words to make it long;',
      'it keeps going without any full stop at all.',
    ]);
  });
  test('cut at spaces, then hard, when there is no clause boundary', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const pieces = segment(words, { maxChars: 40 });
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(40);
    expect(pieces.join(' ')).toBe(words);
    expect(segment('a'.repeat(30) + '!** Next', { maxChars: 31, minChars: 1 })).toEqual([
      'a'.repeat(30) + '!',
      '** Next',
    ]);
    const blob = 'x'.repeat(100);
    expect(segment(blob, { maxChars: 40 })).toEqual(['x'.repeat(40), 'x'.repeat(40), 'x'.repeat(20)]);
  });
  test('default maxChars is 250', () => {
    expect(SEGMENTER_DEFAULTS.maxChars).toBe(250);
    const text = Array.from({ length: 80 }, () => 'word').join(' ');
    for (const p of segment(text)) expect(p.length).toBeLessThanOrEqual(250);
  });
});

describe('contract', () => {
  test('push returns only completed pieces and waits for the next non-space character', () => {
    const s = new SentenceSegmenter();
    expect(s.push('Sure! It costs $29.')).toEqual(['Sure!']);
    expect(s.push('99 today, or so I hear from them.')).toEqual([]);
    expect(s.push(' Next')).toEqual(['It costs $29.99 today, or so I hear from them.']);
    expect(s.flush()).toEqual(['Next']);
    expect(s.flush()).toEqual([]);
  });
  test('a sentence end waits for the next non-space character', () => {
    const s = new SentenceSegmenter({ earlyFirstPiece: false });
    expect(s.push('This sentence is long enough.')).toEqual([]);
    expect(s.push('  ')).toEqual([]);
    expect(s.push('\t')).toEqual([]);
    expect(s.push('Next')).toEqual(['This sentence is long enough.']);
  });
  test('flush resets for the next answer', () => {
    const s = new SentenceSegmenter();
    s.push('First answer, which is long enough to cut early, yes.');
    s.flush();
    expect(s.emitted).toBe(0);
    expect(s.pushSpans('  Again, this answer is long enough to cut, yes.')[0]).toMatchObject({
      start: 2,
      index: 0,
      first: true,
    });
  });
  test('rejects bad input with a clear error', () => {
    const s = new SentenceSegmenter();
    expect(() => s.push(42 as unknown as string)).toThrow('delta must be a string, got number');
    expect(() => new SentenceSegmenter({ maxChars: 5 })).toThrow('maxChars must be an integer >= 20');
    expect(() => new SentenceSegmenter({ minChars: 300 })).toThrow('must not exceed maxChars');
    expect(() => new SentenceSegmenter({ bogus: 1 } as SegmenterOptions)).toThrow('unknown option(s) bogus');
  });
});

describe('title-case abbreviations before a capitalised word and a number', () => {
  // A date written as abbreviated weekday, month and day is one span; every other title-case
  // abbreviation of the rules is checked the same way (a capitalised word, then a number).
  test.each<[string, string[]]>([
    ['The meeting is on Tue. Dec. 1 at noon, in room two.', ['The meeting is on Tue. Dec. 1 at noon, in room two.']],
    ['The meeting is on Tue. December 1 at noon, as said.', ['The meeting is on Tue. December 1 at noon, as said.']],
    [
      'The meeting is on Mon. Jan. 5 and on Fri. Feb 13 too.',
      ['The meeting is on Mon. Jan. 5 and on Fri. Feb 13 too.'],
    ],
    ['The shop opens on Sat. Nov. 29 for the holiday rush.', ['The shop opens on Sat. Nov. 29 for the holiday rush.']],
    ['We can meet on Sun. May 4 if that works for you all.', ['We can meet on Sun. May 4 if that works for you all.']],
    ['The shop opens on Thurs. Sept. 3 after the repairs.', ['The shop opens on Thurs. Sept. 3 after the repairs.']],
    [
      'The shop opens on Wed. 3 Dec. for the very first time.',
      ['The shop opens on Wed. 3 Dec. for the very first time.'],
    ],
    // Not a date: the weekday ends its sentence.
    ['We saw them all on Tue. Then we went home again.', ['We saw them all on Tue.', 'Then we went home again.']],
    ['We saw them all on Tue. December was cold anyway.', ['We saw them all on Tue.', 'December was cold anyway.']],
    ['We looked up at the bright sun. Dec was there too.', ['We looked up at the bright sun.', 'Dec was there too.']],
    // Month abbreviations: a number keeps them, a capitalised word cuts.
    ['The report came out on Dec. 1 and nobody read it.', ['The report came out on Dec. 1 and nobody read it.']],
    ['The report came out in Dec. Nobody read it at all.', ['The report came out in Dec.', 'Nobody read it at all.']],
    // Reference abbreviations number with digits or Roman numerals.
    ['The proof is given in Vol. II of the big series.', ['The proof is given in Vol. II of the big series.']],
    [
      'The proof is given in Ch. IV and again in Sec. 12 here.',
      ['The proof is given in Ch. IV and again in Sec. 12 here.'],
    ],
    ['The answer to the question was No. I think so.', ['The answer to the question was No.', 'I think so.']],
    ['See the figure in Fig. 3 for the details of it.', ['See the figure in Fig. 3 for the details of it.']],
    ['Look at the last one, the Fig. Then look again.', ['Look at the last one, the Fig.', 'Then look again.']],
    // Titles never end a sentence, whatever follows.
    ['Ask Dr. Smith 3 times and Gen. Lee 4 times today.', ['Ask Dr. Smith 3 times and Gen. Lee 4 times today.']],
    ['We climbed Mt. Everest 2 times and St. Kilda once.', ['We climbed Mt. Everest 2 times and St. Kilda once.']],
  ])('%j', (text, expected) => {
    expect(later(text)).toEqual(expected);
  });

  test('the date decision waits for the text that decides it, however it is split', () => {
    const text = `${LEAD}We meet on Tue. Dec. 1 at noon. Then we eat lunch.`;
    const whole = segment(text);
    expect(whole).toEqual(['Here is the answer.', 'We meet on Tue. Dec. 1 at noon.', 'Then we eat lunch.']);
    for (let cut = 1; cut < text.length; cut++) {
      const s = new SentenceSegmenter();
      expect([...s.push(text.slice(0, cut)), ...s.push(text.slice(cut)), ...s.flush()]).toEqual(whole);
    }
    const s = new SentenceSegmenter();
    expect(s.push(`${LEAD}We meet on Tue. `)).toEqual(['Here is the answer.']);
    expect(s.push('Dec')).toEqual([]); // "Tue." cannot be decided yet: "Dec" may be a month
    expect(s.push('. 1 at noon. Then')).toEqual(['We meet on Tue. Dec. 1 at noon.']);
  });
});

describe("misaki's inline pronunciation", () => {
  test('never cut inside, however the tokens arrive', () => {
    const text = 'Meet [Dr. Kokoro](/dˈɑktəɹ kˈOkəɹO/) today. It speaks [fast](/fˈæst/)! Done.';
    const expected = ['Meet [Dr. Kokoro](/dˈɑktəɹ kˈOkəɹO/) today.', 'It speaks [fast](/fˈæst/)!', 'Done.'];
    expect(later(text)).toEqual(expected);
    const tokens = (LEAD + text).match(/.{1,3}/gsu)!;
    expect(
      spans(tokens)
        .map((p) => p.text)
        .slice(1),
    ).toEqual(expected);
  });
});
