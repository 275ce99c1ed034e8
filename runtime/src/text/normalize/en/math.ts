// Math class: equations ("1-2=5" -> "1 minus 2 = 5", said "equals"), products ("2*8"), powers ("10^6",
// "x²") and math symbols. espeak-ng reads "+" and "=" itself, but takes "-" in "1-2" for a range
// and drops "*" and "^".
import type { Rule } from '../rules.ts';

const OPERATORS: Record<string, string> = {
  '+': 'plus',
  '-': 'minus',
  '−': 'minus',
  '*': 'times',
  '×': 'times',
  '·': 'times',
  '/': 'divided by',
  '÷': 'divided by',
  '=': '=', // espeak-ng says "equals" itself
};

const SYMBOLS: Record<string, string> = {
  '≤': 'less than or equal to',
  '≥': 'greater than or equal to',
  '≠': 'not equal to',
  '≈': 'approximately',
  '±': 'plus or minus',
  '√': 'the square root of',
  '∞': 'infinity',
  '∑': 'the sum of',
  π: 'pi',
};

const POWER = '(?:[²³]|\\^\\d+)';
const TERM = `(?:\\d+(?:\\.\\d+)?|[a-zA-Z](?![\\p{L}]))${POWER}?`;
const OP = '\\s?[-−+*×·/÷]\\s?';

const spokenPower = (p: string): string =>
  p === '²' ? ' squared' : p === '³' ? ' cubed' : ` to the power of ${p.slice(1)}`;

/** "1- 2 = 5" -> "1 minus 2 = 5". */
export function spokenExpression(written: string): string {
  return written
    .split(/(\s?[-−+*×·/÷=]\s?)/)
    .map((part) => {
      const op = OPERATORS[part.trim()];
      if (op !== undefined) return ` ${op} `;
      return part.replace(/([²³]|\^\d+)$/, (p) => spokenPower(p));
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

export const MATH_RULES: Rule[] = [
  {
    // equations: terms and operators around an "=" sign
    name: 'math',
    re: `(?<![\\p{L}\\p{N}.,/-])${TERM}(?:${OP}${TERM})*\\s?=\\s?-?${TERM}(?:${OP}${TERM})*(?![\\p{L}\\p{N}])`,
    speak: (g) => spokenExpression(g[0]!),
  },
  {
    // products and powers without an "=": "2*8", "3 * 4", "10^6", "x²"
    name: 'math',
    re: `(?<![\\p{L}\\p{N}*])\\d+(?:\\.\\d+)?\\s?(?<!\\*)\\*(?!\\*)\\s?\\d+(?![\\p{L}\\p{N}*])|(?<![\\p{L}\\p{N}])(?:\\d+|[a-zA-Z])${POWER}(?![\\p{L}\\p{N}])`,
    speak: (g) => spokenExpression(g[0]!),
  },
  { name: 'math', re: '[≤≥≠≈±√∞∑π]', speak: (g) => ` ${SYMBOLS[g[0]!]} ` },
];
