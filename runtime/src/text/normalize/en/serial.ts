// Serial class: codes that mix letters and digits ("A4-B12", "B2A23C", "ab9453", "COVID-19"):
// letters and numbers are said apart, long or zero-led numbers digit by digit. Model names with
// a space ("RTX 4090") are left to kokoro-js, which reads the number in pairs, as people do.
import type { Rule } from '../rules.ts';
import { digitByDigit } from './number-words.ts';

/** A group of digits in a code: short ones as numbers, long or zero-led ones digit by digit. */
function spokenDigits(d: string): string {
  if (d.length > 1 && d.startsWith('0')) return digitByDigit(d);
  if (d.length <= 3) return d;
  if (d.length === 4 && /00$/.test(d)) return d;
  return digitByDigit(d);
}

/** "B2A23C" -> "B 2 A 23 C", "1-413-te-b" -> "1 413 te b". */
export function spokenSerial(code: string): string {
  return (code.match(/\p{L}+|\p{N}+/gu) ?? [])
    .map((part) => (/\p{N}/u.test(part) ? spokenDigits(part) : part))
    .join(' ');
}

export const SERIAL_RULES: Rule[] = [
  {
    name: 'serial',
    // not a word with a prefix ("mid-80s", "covid-19": kokoro-js reads them), hence no "abc-" start
    re: "(?<![\\p{L}\\p{N}'’.,-])(?!\\p{L}{3,}-)(?=[\\p{L}\\p{N}-]*\\p{N})(?=[\\p{N}-]*\\p{L})[\\p{L}\\p{N}]+(?:-[\\p{L}\\p{N}]+)*(?![\\p{L}\\p{N}'’]|-[\\p{L}\\p{N}]|[.,]\\p{N})",
    speak: (g) => spokenSerial(g[0]!),
  },
];
