// Telephone class: phone numbers digit by digit in their groups, with a pause (comma) between
// groups, as a person reads them out: "(555) 010-4477" -> "5 5 5, 0 1 0, 4 4 7 7". Also codes
// read digit by digit after a word that says so ("ending in 8876", "PIN 4821").
import type { Rule } from '../rules.ts';
import { digitByDigit } from './number-words.ts';

/** Area codes of toll-free numbers are said as a number ("one, eight hundred, ..."). */
const TOLL_FREE = new Set(['800', '888', '877', '866', '855', '844', '833']);

function spokenGroup(group: string, index: number): string {
  if (/^[A-Za-z ]+$/.test(group)) return group;
  if (index <= 1 && TOLL_FREE.has(group)) return group;
  return digitByDigit(group);
}

/** "+1 (123) 123-5678 ext. 12" -> "plus 1, 1 2 3, 1 2 3, 5 6 7 8, extension 1 2". */
export function spokenTelephone(written: string): string {
  const [number = '', extension] = written.split(/\s*(?:ext\.?|x)\s*(?=\d)/i);
  const plus = number.trimStart().startsWith('+');
  const groups = number.match(/[A-Za-z]+|\d+/g) ?? [];
  // vanity numbers: "GO-U-HAUL" is one group of words
  const merged: string[] = [];
  for (const g of groups) {
    const last = merged.at(-1);
    if (last !== undefined && /^[A-Za-z]/.test(g) && /^[A-Za-z]/.test(last)) merged[merged.length - 1] = `${last} ${g}`;
    else merged.push(g);
  }
  const spoken = merged.map((g, i) => (i === 0 && plus ? `plus ${digitByDigit(g)}` : spokenGroup(g, i)));
  if (extension !== undefined) spoken.push(`extension ${digitByDigit(extension)}`);
  return spoken.join(', ');
}

const SEP = '[\\s.-]';
const EXTENSION = '(?:\\s?(?:ext\\.?|x)\\s?\\d{1,5})?';

export const TELEPHONE: Rule[] = [
  {
    // international: "+1 800 555 0199", "+44 20 7946 0958", "+1 (123)-123-5678"
    name: 'telephone',
    re: `(?<![\\p{L}\\p{N}+])\\+\\d{1,3}${SEP}?(?:\\(\\d{1,4}\\)${SEP}?)?\\d{1,4}(?:${SEP}\\d{2,4}){1,4}${EXTENSION}(?![\\p{N}])`,
    speak: (g) => spokenTelephone(g[0]!),
  },
  {
    // North American: "(555) 010-4477", "123-123-5678", "555.555.5555", "1-800-555-0199", "1-800-GO-U-HAUL"
    name: 'telephone',
    re:
      `(?<![\\p{L}\\p{N}.+-])(?:1[-.])?(?:\\(\\d{3}\\)${SEP}?|\\d{3}[.-])` +
      `(?:\\d{3}[.-]\\d{4}(?:-\\d{1,4})?|(?<=1[-.]8\\d\\d-)[A-Z0-9]+(?:-[A-Z0-9]+)+)${EXTENSION}(?![\\p{L}\\p{N}]|[.-]\\p{N})`,
    speak: (g) => spokenTelephone(g[0]!),
  },
  {
    // social security style: "111-11-1111"
    name: 'telephone',
    re: '(?<![\\p{L}\\p{N}.-])\\d{3}-\\d{2}-\\d{4}(?![\\p{L}\\p{N}]|-\\p{N})',
    speak: (g) => spokenTelephone(g[0]!),
  },
  {
    // codes: digit by digit after a word that says it is a code
    name: 'telephone',
    re: '(?<=\\b(?:ending in|ends in|PIN|pin|code|OTP|otp|passcode|extension|ext\\.?) (?:is )?)\\d{3,10}(?![\\p{L}\\p{N}]|[.,]\\p{N})',
    speak: (g) => digitByDigit(g[0]!),
  },
];
