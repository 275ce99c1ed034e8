// normalizeForSpeech: fixture tables (input -> spoken) and properties of the output and its map.
import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { normalizeForSpeech, sourceRange } from './normalize.ts';

const spoken = (text: string): string => normalizeForSpeech(text).spoken;

describe('markdown is not read aloud', () => {
  test.each<[string, string]>([
    ['# Getting started ##', 'Getting started'],
    ['### Step two', 'Step two'],
    ['- **Bold** and *italic* and __strong__ and ~~gone~~ text', 'Bold and italic and strong and gone text'],
    ['* first item', 'first item'],
    ['+ [x] done task', 'done task'],
    ['1. First step', '1. First step'], // numbered steps keep their number: "one. First step"
    ['> quoted *words*', 'quoted words'],
    ['Run `npm install` first.', 'Run npm install first.'],
    ['Call `const result = await client.send(new Command({ Bucket }))` here.', 'Call here.'],
    ['Read [the docs](https://example.com/docs "Docs") now.', 'Read the docs now.'],
    ['An image: ![a red fox](fox.png).', 'An image: a red fox.'],
    ['<b>bold</b> text<br/>more', 'bold text more'],
    ['```js\nconst a = 1;\n```\nAfter the code', 'After the code'],
    ['Before\n~~~\ncode\n~~~', 'Before.'],
    ['| Name | Age |\n|---|:---:|\n| Bob | 42 |', 'Name, Age.\nBob, 42'],
    ['Shopping:\n- Eggs\n- Milk\n\nDone', 'Shopping:\nEggs.\nMilk.\nDone'], // blank lines collapse
    ['Above\n\n---\n\nBelow', 'Above.\nBelow'],
    ['Great job! 🎉🚀 Next ✓ step → done ★', 'Great job! Next step done'],
    ['Family 👨‍👩‍👧 and flag 🇫🇷 here.', 'Family and flag here.'],
    ['Use snake_case names', 'Use snake case names'],
  ])('%j', (input, expected) => {
    expect(spoken(input)).toBe(expected);
  });
});

describe('addresses', () => {
  test.each<[string, string]>([
    ['See https://www.example.com/a/b?c=1. Thanks', 'See example dot com. Thanks'],
    ['Go to http://192.168.0.1:8080/admin now', 'Go to a link now'],
    ['Visit <https://docs.aws.amazon.com/x>', 'Visit docs dot aws dot amazon dot com slash x'], // a short path is read
    ['Mail jane.doe@example.co.uk today.', 'Mail jane dot doe at example dot co dot uk today.'],
  ])('%j', (input, expected) => {
    expect(spoken(input)).toBe(expected);
  });
});

describe('numbers, money, times, dates, units, abbreviations', () => {
  test.each<[string, string]>([
    ['It costs $1,299.99 today.', 'It costs 1,299 dollars and 99 cents today.'],
    ['It costs $2026.', 'It costs 2,026 dollars.'], // kokoro-js would say "20 dollars 26"
    [
      'Only $1 or €1.50 or £3 or ¥100 or ₹20',
      'Only 1 dollar or 1 euro and 50 cents or 3 pounds or 100 yen or 20 rupees',
    ],
    ['Raised $5M and $2.5 billion', 'Raised 5 million dollars and 2.5 billion dollars'],
    ['Up 50% and 2.5% down', 'Up 50% and 2.5% down'], // espeak-ng says "percent" itself
    ['At 10:30 am, 14:30, 09:05 and 18:00', 'At 10:30 am, 14 30, 9 oh 5 and 18 hundred'],
    ['Due 2026-11-30 or 2026-13-45', 'Due November 30th, 2026 or 2026 13 45'],
    ['On Nov 30, Nov. 30, 2026 and March 3rd', 'On November 30th, November 30th, 2026 and March 3rd'],
    ['By 30 Nov 2026 or 1 May', 'By the 30th of November, 2026 or the 1st of May'],
    [
      '5 km, 1 kg, 20°C, 68 °F, 90°, 200 ms, 1.5 GB, 60 mph, 30 km/h',
      '5 kilometers, 1 kilogram, 20 degrees Celsius, ' +
        '68 degrees Fahrenheit, 90 degrees, 200 milliseconds, 1.5 gigabytes, 60 miles per hour, 30 kilometers per hour',
    ],
    ['5 kms and 3 kgs of mass', '5 kms and 3 kgs of mass'], // not units: left alone
    ['Cities, e.g. Paris, i.e. big, vs. towns', 'Cities, for example Paris, that is big, versus towns'],
    [
      'Ask Prof. Lee, approx. 5 people, No. 7, #1 and ~3 more',
      'Ask Professor Lee, approximately 5 people, number 7, number 1 and about 3 more',
    ],
    ['Coffee w/ milk, w/o sugar', 'Coffee with milk, without sugar'],
    ['Written in C# and F#', 'Written in C sharp and F sharp'],
    ['Dr. Smith met Mr. Jones', 'Dr. Smith met Mr. Jones'], // kokoro-js expands these itself
    ['The 21st time', 'The 21st time'], // espeak-ng reads ordinals
    ['Open 24/7 from 10am or 10:30pm', 'Open 24 7 from 10am or 10:30 pm'],
    [
      'Add 1/2 cup, ¾ cup, 2/4 or 11/30/2026', // every fraction and numeric date is read (issue 20)
      'Add one half cup, three quarters cup, two quarters or November 30th, 2026',
    ],
    ['It is 3x faster, 1.5x smaller, 3 × 4 = 12', 'It is 3 times faster, 1.5 times smaller, 3 times 4 = 12'],
  ])('%j', (input, expected) => {
    expect(spoken(input)).toBe(expected);
  });
});

describe('mapping', () => {
  test('each spoken piece points back at its source', () => {
    const source = 'Price **$5** now.';
    const n = normalizeForSpeech(source);
    expect(n.spoken).toBe('Price 5 dollars now.');
    const at = (s: string) => {
      const i = n.spoken.indexOf(s);
      const r = sourceRange(source, n, i, i + s.length);
      return source.slice(r.start, r.end);
    };
    expect(at('5 dollars')).toBe('$5');
    expect(at('now')).toBe('now');
    expect(at('Price')).toBe('Price');
  });
  test('rejects a non-string', () => {
    expect(() => normalizeForSpeech(undefined as unknown as string)).toThrow('text must be a string, got undefined');
  });
});

const markdownish = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '# ',
          '## ',
          '- ',
          '* ',
          '1. ',
          '> ',
          '**',
          '*',
          '_',
          '__',
          '`',
          '```',
          '~~~',
          '~',
          '|',
          '| a | b |',
          '|---|---|',
          '[',
          ']',
          '(',
          ')',
          '[x](http://a.b/c)',
          '![i](p.png)',
          '<b>',
          '#',
          '\\',
          '🎉',
          '👍🏽',
          '→',
        ),
      },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'word',
          ' ',
          ' ',
          '\n',
          '\n\n',
          '$5',
          '€1,299.99',
          '10:30',
          '23:59',
          '2026-11-30',
          'Nov 30',
          '5 km',
          '20°C',
          'e.g.',
          'vs.',
          'https://x.io/a_b',
          'a@b.co',
          '50%',
          '.',
          ',',
          'C#',
        ),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    ),
    { maxLength: 60 },
  )
  .map((t) => t.join(''));

describe('properties', () => {
  test('never throws, never speaks markup, and the map tiles source and spoken text in order', () => {
    fc.assert(
      fc.property(markdownish, (source) => {
        const n = normalizeForSpeech(source);
        expect(n.spoken).not.toMatch(/[*#`_~|]|\p{Extended_Pictographic}/u);
        expect(n.spoken.trim()).toBe(n.spoken);
        let src = 0;
        let out = 0;
        for (const s of n.segments) {
          expect(s.sourceStart).toBe(src);
          expect(s.spokenStart).toBe(out);
          expect(s.sourceEnd).toBeGreaterThanOrEqual(s.sourceStart);
          expect(s.spokenEnd).toBeGreaterThanOrEqual(s.spokenStart);
          src = s.sourceEnd;
          out = s.spokenEnd;
        }
        expect(src).toBe(source.length);
        expect(out).toBe(n.spoken.length);
      }),
      { numRuns: 400 },
    );
  });
});

// Class examples joined by separators no rule reaches across: each spoken word must map back
// inside the one example (or separator) it came from (captions and the history cut rely on it).
const CLASS_EXAMPLES = [
  ...['$1,299.99', '$0.02', '$10-20', '€5M', '5-10 km', '12kg/kg', '20°C', '2x8 m2', '3x', '1980s', "'80s"],
  ...['mid-80s', 'on the 26th May', 'july 25 2012', '2016-11-03', '11/17/05', 'May 5-7', '01:00 am', '14:10:30'],
  ...['2pm-5pm', '(555) 010-4477', '+1 800 555 0199', '111-11-1111', '1428 Elm St.', 'Santa Clara, CA 95051'],
  ...['A4-B12', 'RTX 4090', 'Chapter IV', 'Henry VIII', 'WWII', '3 2/4', '31/32', '100th', '1-2=5', '10^6', 'x²'],
  ...['2*8', 'jane.doe@example.com', 'https://example.com/docs', 'nvidia.com', '192.168.0.1', 'don’t', '“fine”'],
  ...['**bold**', '`code`', '[link](http://a.b/c)', '4567', '1234567890123', 'e.g.', 'No. 5', 'C#', '🎉', 'word'],
];

describe('the map of the class rules', () => {
  test('every spoken word maps back inside the source example it came from', () => {
    const examples = fc.array(fc.constantFrom(...CLASS_EXAMPLES), { minLength: 1, maxLength: 8 });
    const separator = fc.constantFrom(' and then ', '; ', ' | ', '\n');
    fc.assert(
      fc.property(examples, separator, (parts, sep) => {
        const source = parts.join(sep);
        const owners: Array<[number, number]> = [];
        let at = 0;
        for (const p of parts) {
          owners.push([at, at + p.length], [at + p.length, at + p.length + sep.length]); // the example, the separator
          at += p.length + sep.length;
        }
        const n = normalizeForSpeech(source);
        // words as the container cuts them (at spaces), less the punctuation around them
        for (const w of n.spoken.matchAll(/[\p{L}\p{N}](?:\S*[\p{L}\p{N}])?/gu)) {
          const r = sourceRange(source, n, w.index, w.index + w[0].length);
          const inside = owners.some(([a, b]) => r.start >= a && r.end <= b);
          expect({ word: w[0], source: source.slice(r.start, r.end), inside }).toMatchObject({ inside: true });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("misaki's inline pronunciation passes through to the container", () => {
  test('intact in the spoken text; the word shown maps to itself; ordinary links still read by their label', () => {
    const text = 'Meet [Kokoro](/kˈOkəɹO/) at [our site](https://example.com) on **day 2**.';
    const n = normalizeForSpeech(text);
    expect(n.spoken).toBe('Meet [Kokoro](/kˈOkəɹO/) at our site on day 2.');
    // The container's word "Kokoro" (its letters inside the brackets) maps to the same letters here.
    const at = n.spoken.indexOf('Kokoro');
    const { start, end } = sourceRange(text, n, at, at + 'Kokoro'.length);
    expect(text.slice(start, end)).toBe('Kokoro');
    // A phrase, and phonemes with spaces.
    expect(spoken('Say [New York](/nˈu jˈɔɹk/) twice')).toBe('Say [New York](/nˈu jˈɔɹk/) twice');
  });
});
