// Fraction class: "1/2", "3 2/4" ("3 and 2 quarters"), "31/32" ("31 thirty seconds"), "¾",
// "1/4th". espeak-ng reads "a/b" as "a slash b", and cannot say plural ordinals ("32nds").
import type { Rule } from '../rules.ts';
import { MONTHS } from './date.ts';
import { cardinalWords, ordinalDigits, ordinalWords } from './number-words.ts';

const VULGAR: Record<string, string> = {
  '½': '1/2',
  '⅓': '1/3',
  '⅔': '2/3',
  '¼': '1/4',
  '¾': '3/4',
  '⅕': '1/5',
  '⅛': '1/8',
  '⅜': '3/8',
  '⅝': '5/8',
  '⅞': '7/8',
};

/** "3", "4" -> "three quarters"; "1", "2" -> "one half"; "2", "1" -> "two over one". */
export function spokenFraction(numerator: string, denominator: string, mixed = false): string {
  const n = Number(numerator);
  const top = cardinalWords(numerator);
  if (Number(denominator) === 1 || Number(denominator) === 0) return `${top} over ${cardinalWords(denominator)}`;
  let bottom = denominator === '2' ? 'half' : denominator === '4' ? 'quarter' : ordinalWords(denominator);
  if (n !== 1) bottom = bottom === 'half' ? 'halves' : `${bottom}s`;
  return mixed && n === 1 && denominator === '2' ? 'a half' : `${top} ${bottom}`;
}

/**
 * A slash between whole numbers is a fraction when the denominator is small or a usual one
 * (16ths, 32nds, 100ths); otherwise "1/24" and "2/22" are dates (month, day); "24/7" is a phrase.
 */
function isFraction(n: string, d: string): boolean {
  const [a, b] = [Number(n), Number(d)];
  return b <= 10 || [12, 16, 32, 64, 100, 1000].includes(b) || a > 12 || b > 31;
}

const ORD = '(?:st|nd|rd|th|ST|ND|RD|TH)';

export const FRACTION_RULES: Rule[] = [
  { name: 'fraction', re: '(?<![\\d/])24/7(?![\\d/])', speak: () => '24 7' },
  {
    // mixed numbers: "3 2/4", "2 1/2", "4 ½"
    name: 'fraction',
    re: `(?<![\\p{L}\\p{N}.,/])(\\d+)\\s(?:(\\d+)/(\\d+)${ORD}?|([½⅓⅔¼¾⅕⅛⅜⅝⅞]))(?![\\p{L}\\p{N}/])`,
    speak: (g) => {
      const [n, d] = g[4] === undefined ? [g[2]!, g[3]!] : VULGAR[g[4]]!.split('/');
      return `${g[1]} and ${spokenFraction(n!, d!, true)}`;
    },
  },
  {
    name: 'fraction',
    re: `(?<![\\p{L}\\p{N}.,/])(\\d+)/(\\d+)(${ORD})?(?![\\p{L}\\p{N}/]|[.,]\\p{N})`,
    speak: (g) => {
      const [, n = '', d = '', ord] = g;
      if (ord === undefined && !isFraction(n, d)) return `${MONTHS[Number(n) - 1]} ${ordinalDigits(Number(d))}`;
      return spokenFraction(n, d);
    },
  },
  {
    name: 'fraction',
    re: '[½⅓⅔¼¾⅕⅛⅜⅝⅞]',
    speak: (g) => {
      const [n, d] = VULGAR[g[0]!]!.split('/');
      return spokenFraction(n!, d!);
    },
  },
];
