// Date class: "Nov 30", "july 25 2012", "25th jul 2012", "2016-11-03", "11/17/05", "15.01.2020",
// ranges ("May 5-7", "5-7 May"), decades ("1980s", "'80s", "mid-80s").
// Years stay digits: kokoro-js reads "2012" as "20 12" and "2006" as "2006", as people do.
import type { Groups, MatchContext, Rule } from '../rules.ts';
import { ordinalDigits } from './number-words.ts';

export const MONTHS = [
  ...['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August'],
  ...['September', 'October', 'November', 'December'],
];

/** "Nov", "nov.", "SEPT", "November" -> "November"; undefined if not a month. */
export function monthName(word: string): string | undefined {
  const w = word.replace(/\.$/, '').toLowerCase();
  if (w.length < 3) return undefined;
  return MONTHS.find((m) => m.toLowerCase() === w || (w.length <= 4 && m.toLowerCase().startsWith(w)));
}

/**
 * A month, any case ("july", "JUL", "Jul."). Lower-case "may" and "march" are verbs too: they
 * count as months only in a day-first date or before a year (see the rules below).
 */
const FULL_MONTH = '(?:january|february|march|april|may|june|july|august|september|october|november|december)';
const SHORT_MONTH = '(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)';
/** Case-insensitive by hand: the combined scanner has no "i" flag. */
const anyCase = (re: string): string => re.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`);
/** Before a day: an abbreviation's dot is part of it ("Sept. 15"). */
const MONTH = `(?:${anyCase(FULL_MONTH)}|${anyCase(SHORT_MONTH)}\\.?)`;
/** After a day: a dot may be the sentence's ("on 25 Sept."): it stays unless the sentence goes on. */
const MONTH_AFTER_DAY = `(?:${anyCase(FULL_MONTH)}|${anyCase(SHORT_MONTH)}(?:\\.(?=\\s+[\\p{Ll}\\p{N}]|,))?)`;
const VERB_MONTH = /^(?:may|march|mar)$/;
/** A month name the rules may read: not a lower-case verb unless a year follows. */
const readable = (month: string, year: string | undefined): boolean =>
  monthName(month) !== undefined && (year !== undefined || !VERB_MONTH.test(month));

const DAY = '(?:[12]\\d|3[01]|0?[1-9])';
const ORD = '(?:st|nd|rd|th|ST|ND|RD|TH)';
const YEAR = '(?:1\\d{3}|20\\d{2})';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

/** "Month Dth[, YYYY]" or undefined when the month or day is out of range. */
export function spokenDate(month: number, day: number, year?: string): string | undefined {
  const name = MONTHS[month - 1];
  if (name === undefined || day < 1 || day > 31) return undefined;
  return `${name} ${ordinalDigits(day)}${year === undefined ? '' : `, ${spokenYear(year)}`}`;
}

/** "05" -> "oh 5", "98" -> "98": a two-digit year as people say it; four digits as written. */
const spokenYear = (year: string): string => (/^0\d$/.test(year) ? `oh ${Number(year)}` : year);

/** "the" unless the text already says it ("on the 26th May"). */
const the = (c: MatchContext): string => (/\bthe\s+$/i.test(c.before) ? '' : 'the ');

function dayFirst(g: Groups, c: MatchContext): string {
  const [whole = '', day = '', toDay, month = '', year] = g;
  if (!readable(month, year)) return whole;
  const name = monthName(month)!;
  const days =
    toDay === undefined
      ? ordinalDigits(Number(day))
      : `${ordinalDigits(Number(day))} to the ${ordinalDigits(Number(toDay))}`;
  return `${the(c)}${days} of ${name}${year === undefined ? '' : `, ${year}`}`;
}

/** "11/17/05" (month first unless the first number cannot be a month), "2016/07/03", "15.01.2020". */
function numericDate(a: string, b: string, c: string): string | undefined {
  if (a.length === 4) return spokenDate(Number(b), Number(c), a);
  const [first, second] = [Number(a), Number(b)];
  if (first > 12 && second <= 12) return `the ${ordinalDigits(first)} of ${MONTHS[second - 1]}, ${spokenYear(c)}`;
  return spokenDate(first, second, c);
}

export const DATE_RULES: Rule[] = [
  {
    // ISO and year-first: "2026-11-30", "2016/07/03", "1998/2/30"
    name: 'date',
    re: `(?<![\\p{L}\\p{N}/.-])${YEAR}(?:-\\d{1,2}-|/\\d{1,2}/|\\.\\d{1,2}\\.)\\d{1,2}(?![\\p{N}/.-]|\\.\\p{N})`,
    speak: (g) => {
      const [y, m, d] = g[0]!.split(/[-/.]/);
      return numericDate(y!, m!, d!) ?? g[0]!.replace(/[-/.]/g, ' ');
    },
  },
  {
    // month or day first, with a year: "11/17/05", "01.10.2010", "15-01-2020"
    name: 'date',
    re: `(?<![\\p{L}\\p{N}/.-])${DAY}(?:-${DAY}-(?:${YEAR}|\\d{2})|/${DAY}/(?:${YEAR}|\\d{2})|\\.${DAY}\\.${YEAR})(?![\\p{N}/-]|\\.\\p{N})`,
    speak: (g) => {
      const [a, b, c] = g[0]!.split(/[-/.]/);
      return numericDate(a!, b!, c!) ?? g[0]!;
    },
  },
  {
    // month first: "Nov 30", "july 25 2012", "Jan-15-2020", "SEPT. 15", "May 5-7", "May 5 - June 3"
    name: 'date',
    re:
      `(?<![\\p{L}\\p{N}])(${MONTH})[\\s-](${DAY})${ORD}?(?:\\s?[-–]\\s?(?:(${MONTH})\\s)?(${DAY})${ORD}?)?` +
      `(?![\\p{L}\\p{N}:%]|[.,]\\p{N})(?:(?:,\\s?|\\s|-)(${YEAR})${NOT_WORD_AFTER})?`,
    speak: (g) => {
      const [, month = '', day = '', toMonth, toDay, year] = g;
      if (!readable(month, year)) return g[0]!;
      const from = spokenDate(MONTHS.indexOf(monthName(month)!) + 1, Number(day))!;
      const to =
        toDay === undefined
          ? ''
          : ` to ${toMonth === undefined ? '' : `${monthName(toMonth)} `}${ordinalDigits(Number(toDay))}`;
      return `${from}${to}${year === undefined ? '' : `, ${year}`}`;
    },
  },
  {
    // day first: "30 Nov 2026", "25th july 2012", "on the 26th May", "5-7 May"
    name: 'date',
    re:
      `(?<![\\p{L}\\p{N}.,:/-])(${DAY})${ORD}?(?:\\s?[-–]\\s?(${DAY})${ORD}?)?\\s(${MONTH_AFTER_DAY})(?![\\p{L}])` +
      `(?:,?\\s(${YEAR})${NOT_WORD_AFTER})?`,
    speak: dayFirst,
  },
  {
    // decade ranges: "1960s-80s"
    name: 'date',
    re: `(?<![\\p{L}\\p{N}.,])((?:1\\d|20)?\\d0s)\\s?[-–—]\\s?('?(?:1\\d|20)?\\d0s)(?![\\p{L}\\p{N}])`,
    speak: (g) => `${g[1]} to ${g[2]!.replace(/^'/, '')}`,
  },
  {
    // decades: "1980s", "1980 s", "'80s", "80s", "mid-80s"; kokoro-js reads "1980s" and "80s" itself
    name: 'date',
    re: `(?<![\\p{L}\\p{N}.,])(?:'?(?:[1-9]0|1\\d\\d0|20\\d0)s|(?:1\\d\\d0|20\\d0) s)${NOT_WORD_AFTER}`,
    speak: (g) => {
      const decade = g[0]!.replace(/^'|\s/g, '');
      return decade === '2000s' ? 'two thousands' : decade;
    },
  },
  {
    // eras: "340 AD", "44 B.C." -> "A D", "B C"
    name: 'date',
    re: `(?<=\\d\\s?)(?:A\\.?D|B\\.?C\\.?E|B\\.?C|C\\.?E)(?![\\p{L}])`,
    speak: (g) => g[0]!.replace(/\./g, '').split('').join(' '),
  },
];
