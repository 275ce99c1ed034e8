// English rules, class by class: every example of issue 20 (and the faults it lists) as a
// regression test, input -> what reaches kokoro-js.
import { describe, expect, test } from '@jest/globals';
import { normalizeForSpeech } from '../../normalize.ts';

const spoken = (text: string): string => normalizeForSpeech(text).spoken;
type Cases = Array<[string, string]>;

const check = (cases: Cases) =>
  test.each(cases)('%j', (input, expected) => {
    expect(spoken(input)).toBe(expected);
  });

describe('regressions the old normaliser added', () => {
  check([
    ['The 1980s were loud.', 'The 1980s were loud.'], // not "1980 seconds"; kokoro-js says "nineteen eighties"
    ['In the mid-80s and the 90s', 'In the mid-80s and the 90s'],
    ["The '80s", 'The 80s'],
    ['The 1960s-80s', 'The 1960s to 80s'],
    ['2*8 is 16', '2 times 8 is 16'], // not "28": the asterisk is no emphasis between digits
    ['Go on the 26th May in the evening', 'Go on the 26th of May in the evening'], // one "the"
    ['Wait 30 s, or 5 s', 'Wait 30 seconds, or 5 seconds'],
  ]);
});

describe('telephone: digit by digit, a pause between groups', () => {
  check([
    ['Call 123-123-5678', 'Call 1 2 3, 1 2 3, 5 6 7 8'],
    ['Call (555) 010-4477 now', 'Call 5 5 5, 0 1 0, 4 4 7 7 now'],
    ['Call +1 800 555 0199', 'Call plus 1, 800, 5 5 5, 0 1 9 9'],
    ['+44 20 7946 0958', 'plus 4 4, 2 0, 7 9 4 6, 0 9 5 8'],
    ['555.555.5555 ext. 12', '5 5 5, 5 5 5, 5 5 5 5, extension 1 2'],
    ['1-800-GO-U-HAUL', '1, 800, GO U HAUL'],
    ['SSN 111-11-1111', 'SSN 1 1 1, 1 1, 1 1 1 1'],
    ['the card ending in 8876', 'the card ending in 8 8 7 6'],
    ['IP 192.168.0.1 here', 'IP 1 9 2 dot 1 6 8 dot 0 dot 1 here'],
  ]);
});

describe('money', () => {
  check([
    ['$0.02', '2 cents'],
    ['$.01 each', '1 cent each'],
    ['$20.506', '20.506 dollars'], // more than cents: a decimal amount
    ['$20.500', '20 dollars and 50 cents'],
    ['£1.111', '1.111 pounds'],
    ['$1,925.21', '1 thousand 925 dollars and 21 cents'], // espeak-ng says "1925" as a year
    ['₩460 billion and ¥30b', '460 billion won and 30 billion yen'],
    ['US$76.3 trillion', '76.3 trillion US dollars'],
    ['$20/mo or £10/wk', '20 dollars per month or 10 pounds per week'],
    ['100 USD', '100 US dollars'],
  ]);
});

describe('times', () => {
  check([
    ['01:00 am', '1 am'], // not "1 o'clock am", which espeak-ng reads with the verb "am"
    ['at 01:00 a.m. sharp', 'at 1 am sharp'],
    ['1.59 p.m. est', '1:59 pm E S T'],
    ['11:20AM and 10:10PM.', '11:20 am and 10:10 pm.'],
    ['23:00 and 09:05', '23 hundred and 9 oh 5'],
    ['14:10:30', '14 hours 10 minutes and 30 seconds'],
    ['He left at 6 P.M. Then', 'He left at 6 pm. Then'], // the sentence's full stop stays
    ['open 9-5 pm', 'open 9 to 5 pm'],
    ['2pm-5pm', '2 pm to 5 pm'],
    ['4:00 am - 8:12 pm', '4 am to 8:12 pm'],
  ]);
});

describe('dates', () => {
  check([
    ['july 25 2012', 'July 25th, 2012'], // month names in lower case
    ['JAN. 15 2020 and SEPT. 15', 'January 15th, 2020 and September 15th'],
    ['25th jul 2012', 'the 25th of July, 2012'], // day first
    ['15 january', 'the 15th of January'],
    ['you may 5 times', 'you may 5 times'], // "may" the verb
    ['17 may 2010', 'the 17th of May, 2010'],
    ['2016/07/03 and 1998/2/30', 'July 3rd, 2016 and February 30th, 1998'],
    [
      '11/17/05 or 15.01.2020 or 15-01-2020',
      'November 17th, oh 5 or the 15th of January, 2020 or the 15th of January, 2020',
    ],
    ['May 5-7', 'May 5th to 7th'], // ranges
    ['5-7 May', 'the 5th to the 7th of May'],
    ['Jan 5 - Feb 3', 'January 5th to February 3rd'],
    ['2020–2024', '2020 to 2024'],
    ['340 AD', '340 A D'],
  ]);
});

describe('fractions, Roman numerals, measures, ranges', () => {
  check([
    ['3 2/4 and 2 1/2', '3 and two quarters and 2 and a half'],
    ['31/32 inch', 'thirty one thirty seconds inch'],
    ['1/4th and 1/3RD', 'one quarter and one third'],
    ['12639/12640', 'twelve thousand six hundred thirty nine twelve thousand six hundred fortieths'],
    ['on 2/22', 'on February 22nd'], // not a usual denominator: a date
    ['Chapter IV', 'Chapter 4'],
    ['Henry VIII and Louis XIV', 'Henry the 8th and Louis the 14th'],
    ['WWII and World War II', 'World War 2 and World War 2'],
    ['PART XL', 'PART 40'],
    ['Washington DC', 'Washington DC'], // capitals that are no numeral here
    ['12kg, 12KG, 12kg/kg', '12 kilograms, 12 kilograms, 12 kilograms per kilogram'],
    ['3 mbps and 100 million kg', '3 megabits per second and 100 million kilograms'],
    ['41,459.00 km³', '41,459.00 cubic kilometers'],
    ['a 5-km run', 'a 5 kilometer run'],
    ['2x8 m2 or 1920x1080', '2 by 8 square meters or 1920 by 1080'],
    ['5-10 km', '5 to 10 kilometers'],
    ['2-5lb', '2 to 5 pounds'],
    ['$10-20', '10 to 20 dollars'],
    ['$250-$300', '250 dollars to 300 dollars'],
    ['100th and 1,000th but 21st', 'one hundredth and one thousandth but 21st'],
  ]);
});

describe('addresses, serials, electronic, math, cardinals', () => {
  check([
    ['1428 Elm St. It was strange.', '1428 Elm Street. It was strange.'],
    ['1211 E Arques Ave', '1211 East Arques Avenue'],
    ['708 N 1st St, San City', '7 oh 8 North 1st Street, San City'],
    ['Apt. 4 and Ste 200', 'Apartment 4 and Suite 200'],
    ['Santa Clara, CA 95051', 'Santa Clara, California 9 5 0 5 1'],
    ['in City, NY', 'in City, New York'],
    ['Yes, OK', 'Yes, OK'], // a state code that is a word
    ['St. Louis and Main St', 'St. Louis and Main Street'], // kokoro-js says "Saint"
    ['A4-B12 and B2A23C', 'A 4 B 12 and B 2 A 23 C'],
    ['an RTX 4090', 'an RTX 4090'], // kokoro-js says "forty ninety"
    ['OTP ab9453, t2000', 'OTP ab 9 4 5 3, t 2000'],
    ['a.bc@gmail.com', 'a dot bc at gmail dot com'],
    ['asdf123@abc.com', 'asdf 1 2 3 at abc dot com'],
    ['see nvidia.com and intro.html', 'see nvidia dot com and intro dot html'],
    [
      'https://developer.nvidia.com/cv-cuda/early-access',
      'developer dot nvidia dot com slash cv dash cuda slash early dash access',
    ],
    ['3 + 4 = 7 and 1-2=5', '3 plus 4 = 7 and 1 minus 2 = 5'],
    ['10^6, x² and y³', '10 to the power of 6, x squared and y cubed'],
    ['a ≤ b ± c', 'a less than or equal to b plus or minus c'],
    ['4567 users since 1999', '4,567 users since 1999'], // years stay years
    ['id 1234567890123', 'id 1 2 3 4 5 6 7 8 9 0 1 2 3'],
    ['a 401(k) plan', 'a 4 oh 1 k plan'],
  ]);
});

test('numbers past the words we have are read digit by digit, never an error', () => {
  expect(spoken(`${'1'.repeat(25)}th`)).toBe(`${'one '.repeat(24)}first`);
  expect(spoken(`$${'9'.repeat(26)}`)).toBe(`${'nine '.repeat(26)}dollars`);
});

describe('LLM typography', () => {
  test('curly apostrophes and quotes reach kokoro-js exactly as straight ones', () => {
    const pairs: Cases = [
      ['don’t, it’s, ‘quoted’', "don't, it's, 'quoted'"],
      ['“Hello,” she said. «Oui»', '"Hello," she said. "Oui"'],
      ['Tom’s 5′ tall', "Tom's 5' tall"],
    ];
    for (const [curly, straight] of pairs) expect(spoken(curly)).toBe(spoken(straight));
  });
  check([
    ['a\u00a0non-breaking\u2009space', 'a non-breaking space'],
    ['soft\u00adhyphen and zero\u200bwidth', 'softhyphen and zerowidth'],
    ['Francis I--test', 'Francis I — test'],
    ['## Results\n- **Bold** item with `code`\n| a | b |', 'Results.\nBold item with code.\na, b'],
    [
      'See [the docs](https://x.io/a) or https://x.io/very/long/path/that/goes/on/and/on/forever',
      'See the docs or x dot io',
    ],
  ]);
});
