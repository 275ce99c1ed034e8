// Range class: two amounts joined by a dash are read "A to B", each in its own class's words:
// "$10-20" -> "10 to 20 dollars", "$250-$300", "5-10 km", "2pm-5pm", "4:00 am - 8:12 pm",
// "1960s-80s", "2020–2024". Runs before the single-amount rules, so that the dash is not lost.
import { groupCount, type Rule } from '../rules.ts';
import { MONEY, spokenMoney } from './money.ts';
import { MEASURE, NUMBER, spokenMeasure, spokenNumber } from './measure.ts';
import { TIME, spokenTime, timeGroups } from './time.ts';

const DASH = '\\s?[-–—]\\s?';
const SPACED_DASH = '(?:\\s?[–—]\\s?|\\s-\\s|-)';
const TIME_GROUPS = groupCount(TIME);

/** "$10-20": the symbol once, on the first amount; the second shares it. */
const MONEY_SHARED = `(?<![\\p{L}\\p{N}])((?:US|CA?|AU?|NZ|HK)?\\$|[€£¥₹₩])\\s?(\\d[\\d,]*)${DASH}(\\d[\\d,]*(?:\\.\\d+)?(?:\\s?(?:thousand|million|billion|trillion|[kKmMbB]|bn))?)(?![\\p{L}\\p{N}]|[.,]\\p{N})`;

const bare = (m: string): string => m.replace(/[-–—]\s?$/, '').trim();

/** Ranges of amounts with a unit, a currency or a time: before the single amounts. */
export const AMOUNT_RANGES: Rule[] = [
  {
    name: 'range',
    re: `(${MONEY})${DASH}(${MONEY})`,
    speak: (g) => {
      const [a, b] = splitAt(g[0]!, g[1]!);
      return `${spokenMoney(a)} to ${spokenMoney(b)}`;
    },
  },
  {
    name: 'range',
    re: MONEY_SHARED,
    speak: (g) => `${spokenNumber(g[2]!)} to ${spokenMoney(`${g[1]}${g[3]}`)}`,
  },
  {
    // times: "2pm-5pm", "4:00 am - 8:12 pm", "9:00–17:00"
    name: 'range',
    re: `(${TIME})${SPACED_DASH}(${TIME})`,
    speak: (g) => {
      const first = g.slice(1, 2 + TIME_GROUPS);
      const second = g.slice(2 + TIME_GROUPS);
      return `${spokenTime(timeGroups(first))} to ${spokenTime(timeGroups(second))}`;
    },
  },
  {
    // "9-5 pm", "9 - 11am": the hours share the am/pm
    name: 'range',
    re: `(?<![\\p{L}\\p{N}:.])(1[0-2]|0?[1-9])${DASH}((?:1[0-2]|0?[1-9])\\s?(?:[AaPp]\\.?[Mm]\\.?))(?![\\p{L}])`,
    speak: (g) => `${Number(g[1])} to ${spokenTime(timeGroups(new RegExp(TIME, 'u').exec(g[2]!)!))}`,
  },
  {
    // measures: "5-10 km", "2-5lb", "1234-123kg"
    name: 'range',
    re: `(?<![\\p{L}\\p{N}.,])(${NUMBER})${DASH}(${MEASURE})`,
    speak: (g) => `${spokenNumber(g[1]!)} to ${spokenMeasure(g[2]!)}`,
  },
];

/** Plain numbers: after the codes that hold dashes (serials, telephones). */
export const NUMBER_RANGES: Rule[] = [
  {
    // numbers: "2020–2024", "5 - 10", "3-2"; kokoro-js reads only a hyphen between digits as "to"
    name: 'range',
    re: `(?<![\\p{L}\\p{N}.,/-])(\\d[\\d,]*(?:\\.\\d+)?)${SPACED_DASH}(\\d[\\d,]*(?:\\.\\d+)?)(?![\\p{L}\\p{N}/]|[-.,]\\p{N})`,
    speak: (g) => `${rangeEnd(g[1]!)} to ${rangeEnd(g[2]!)}`,
  },
];

/** Years stay as written (kokoro-js reads them as years); other numbers grouped. */
const rangeEnd = (n: string): string => (/^(?:1\d{3}|20\d{2})$/.test(n) ? n : spokenNumber(n));

/** Splits "A-B" where A is known to be g1 (the first amount, as matched). */
function splitAt(whole: string, first: string): [string, string] {
  return [bare(first), whole.slice(first.length).replace(/^\s?[-–—]\s?/, '')];
}
