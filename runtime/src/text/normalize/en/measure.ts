// Measure class: a number and a unit ("5 km", "12kg/kg", "100 million kg", "a 5-km run"),
// multipliers ("3x faster") and dimensions ("2x8 m2", "1920x1080": "by").
import type { Rule } from '../rules.ts';
import { spokenCardinal } from './number-words.ts';
import { PER_UNITS, PER_UNIT_PATTERN, UNITS, UNIT_PATTERN } from './units.ts';

const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';
/** A number as measures write it: "5", "1,299", "2.5", "41,459.00", ".5". */
export const NUMBER = '(?:\\d{1,3}(?:,\\d{3})+|\\d+)?(?:\\.\\d+)?(?<=\\d)';
const SCALE_WORD = '(?:\\s(?:thousand|million|billion|trillion))?';
/** One measure: "5 km", "12kg/kg", "20°C", "100 million kg". */
export const MEASURE = `(?<![\\p{L}\\p{N}.,])${NUMBER}${SCALE_WORD}(?:\\s?(?:${UNIT_PATTERN})(?:/(?:${PER_UNIT_PATTERN}))?|/(?:${PER_UNIT_PATTERN}))${NOT_WORD_AFTER}`;

/** A number written for espeak-ng: grouped whole numbers (never read as years), decimals as written. */
export const spokenNumber = (n: string): string => (/^[\d,]+$/.test(n) ? spokenCardinal(n) : n);

const PARSE = new RegExp(`^(${NUMBER}${SCALE_WORD})(?:(\\s?)(${UNIT_PATTERN}))?(?:/(${PER_UNIT_PATTERN}))?(-?)$`, 'u');

/** "5 km" -> "5 kilometers", "1 kg" -> "1 kilogram", "12/kg" -> "12 per kilogram". */
export function spokenMeasure(written: string, adjective = false): string {
  const m = PARSE.exec(written);
  if (m === null) return written;
  const [, number = '', , unit, per] = m;
  const [head = '', scale = ''] = number.split(/(?=\s)/);
  const spoken = `${spokenNumber(head)}${scale}`;
  const [one, many] = unit === undefined ? ['', ''] : UNITS[unit]!;
  const word = unit === undefined ? '' : ` ${head === '1' || adjective ? one : many}`;
  return `${spoken}${word}${per === undefined ? '' : ` per ${PER_UNITS[per]}`}`;
}

export const MEASURE_RULES: Rule[] = [
  {
    // adjectives: "a 5-km run" -> "a 5 kilometer run"
    name: 'measure',
    re: `(?<![\\p{L}\\p{N}.,])${NUMBER}-(?:${UNIT_PATTERN})(?=\\s\\p{L})${NOT_WORD_AFTER}`,
    speak: (g) => spokenMeasure(g[0]!.replace('-', ' '), true),
  },
  { name: 'measure', re: MEASURE, speak: (g) => spokenMeasure(g[0]!) },
  {
    // dimensions: "2x8 m2", "25 x 7 m", "1920x1080"
    name: 'measure',
    re: `(?<![\\p{L}\\p{N}.])(${NUMBER})\\s?[x×]\\s?(${NUMBER})(?:\\s?(${UNIT_PATTERN}))?${NOT_WORD_AFTER}`,
    speak: (g) => {
      // 4-digit sides stay as written: "1920x1080" is said "nineteen twenty by ten eighty"
      const side = (n: string): string => (/^\d{4}$/.test(n) ? n : spokenNumber(n));
      const tail = g[3] === undefined ? side(g[2]!) : spokenMeasure(`${g[2]} ${g[3]}`);
      return g[3] === undefined && g[0]!.includes('×') ? `${g[1]} times ${tail}` : `${side(g[1]!)} by ${tail}`;
    },
  },
  {
    name: 'measure',
    re: `(?<![\\p{L}\\p{N}.])(${NUMBER})[x×]${NOT_WORD_AFTER}`,
    speak: (g) => `${g[1]} times`,
  }, // "3x faster"
  { name: 'measure', re: '(?<=\\d ?)×(?= ?\\d)', speak: () => ' times ' },
];
