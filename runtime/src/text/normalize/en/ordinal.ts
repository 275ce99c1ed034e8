// Ordinal class: espeak-ng reads "21st" and "111th" itself but not round hundreds and more
// ("100th" -> "one hundred th", "1,000th"): those become words.
import type { Rule } from '../rules.ts';
import { spokenOrdinal } from './number-words.ts';

export const ORDINAL_RULES: Rule[] = [
  {
    name: 'ordinal',
    re: '(?<![\\p{L}\\p{N}.,])(\\d{1,3}(?:,\\d{3})+|\\d+)(?:st|nd|rd|th)(?![\\p{L}\\p{N}])',
    speak: (g) => {
      const digits = g[1]!.replace(/,/g, '');
      return /00$/.test(digits) || digits.length > 6 ? spokenOrdinal(digits) : g[0]!;
    },
  },
];
