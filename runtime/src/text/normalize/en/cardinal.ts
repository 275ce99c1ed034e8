// Cardinal class: whole numbers espeak-ng would misread after kokoro-js. kokoro-js reads every
// 4-digit number as a year ("4567" -> "45 67"); past 2099 and not a round hundred that is
// rarely meant, so those are grouped ("4,567"). Long runs of digits are identifiers, read digit
// by digit; numbers past espeak-ng's trillions become words.
import type { Rule } from '../rules.ts';
import { cardinalWords, digitByDigit, grouped } from './number-words.ts';

export const CARDINAL_RULES: Rule[] = [
  {
    // not after a model name in capitals ("RTX 4090") or a "#"
    name: 'cardinal',
    re: '(?<![\\p{L}\\p{N}.,:/#$-]|\\p{Lu}{2,}\\s)(?:2[1-9]|[3-9]\\d)(?!00)\\d\\d(?![\\p{L}\\p{N}]|[.,:]\\p{N})',
    speak: (g) => grouped(g[0]!),
  },
  {
    name: 'cardinal',
    re: '(?<![\\p{L}\\p{N}.,:/-])\\d{10,}(?![\\p{L}\\p{N}]|[.,]\\p{N})',
    speak: (g) => digitByDigit(g[0]!),
  },
  {
    name: 'cardinal',
    re: '(?<![\\p{L}\\p{N}.,])\\d{1,3}(?:,\\d{3}){5,}(?![\\p{N}]|[.,]\\p{N})',
    speak: (g) => cardinalWords(g[0]!.replace(/,/g, '')),
  },
  { name: 'cardinal', re: '−(?=\\d)', speak: () => 'minus ' },
];
