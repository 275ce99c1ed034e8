// Rules for the languages espeak-ng reads (es, fr, hi, it, pt): only the forms it gets wrong in
// that language, each rewritten into words and digits it reads right (numbers stay digits:
// espeak-ng says them in the voice's language). What espeak-ng reads right is left alone and
// tested so (container/src/engine/espeak-reads.test.ts); docs/design/languages.md lists both.
import type { Rule } from '../rules.ts';
import { MARKUP_LEFTOVERS, MARKUP_SPANS, TYPOGRAPHY } from '../en/markup.ts';

/** A language's words for the forms below. */
export interface EspeakLanguageWords {
  /** January..December, in the case used inside a date ("15 de marzo de 2025": ['de ', ' de ']). */
  months: readonly string[];
  /** Written between day and month, and between month and year. */
  dateJoins: readonly [string, string];
  /** Hours and minutes: "12:30" -> `${h}${time[0]}${m}${time[1]}`; "12:00" -> `${h}${oclock}`. */
  time: readonly [string, string];
  oclock: string;
  /** A word written after a time that the spoken time already says ("12:30 बजे"): dropped. */
  timeWord?: string;
  /** The decimal comma said as a word ("3,5" -> "3 coma 5"); undefined: the decimal point is the language's. */
  decimalComma?: string;
  /** "1.500" is one thousand five hundred (the dot groups thousands). */
  dotThousands: boolean;
  /** Currencies by symbol: [singular, plural]; and the word between units and cents. */
  currencies: Readonly<Record<string, readonly [string, string]>>;
  centsJoin: string;
  /** Cents said after the join ("50 centavos"); '' to say the number alone. */
  cents?: string;
  /** "1.º", "2.ª" are written with a dot (es, pt, it): espeak-ng reads "1º" but not "1.º". */
  dottedOrdinals?: boolean;
  /** Unit symbols espeak-ng misreads after a number: [singular, plural]. */
  units: Readonly<Record<string, readonly [string, string]>>;
}

const NUMBER_END = '(?![\\p{L}\\p{N}]|[.,]\\p{N})';
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

export function espeakRules(w: EspeakLanguageWords): Rule[] {
  const amount = (whole: string, cents: string | undefined, symbol: string): string => {
    const [one, many] = w.currencies[symbol]!;
    const n = Number(whole.replace(/[.\s]/g, ''));
    const head = `${n} ${n === 1 ? one : many}`;
    if (cents === undefined || /^0+$/.test(cents)) return head;
    return [head, w.centsJoin, String(Number(cents)), w.cents ?? ''].filter((s) => s !== '').join(' ');
  };
  const symbols = Object.keys(w.currencies)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  // 3.500 or 3500 (a dot groups thousands where the language does), then ,50 or .50
  const whole = w.dotThousands ? '\\d{1,3}(?:\\.\\d{3})+|\\d+' : '\\d+';
  const units = Object.keys(w.units)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  const rules: Rule[] = [
    {
      name: 'date', // 15/03/2025, 15/3: day, month name, year (the languages write day first)
      re: `(?<![\\p{N}/])(0?[1-9]|[12]\\d|3[01])/(0?[1-9]|1[0-2])(?:/(\\d{4}))?${NUMBER_END}(?!/)`,
      speak: (g) =>
        `${Number(g[1])}${w.dateJoins[0]}${w.months[Number(g[2]) - 1]}${g[3] ? `${w.dateJoins[1]}${g[3]}` : ''}`,
    },
    {
      name: 'money', // € 3,50 / $3.50 / R$ 3,50 / ₹50
      re: `(${symbols})\\s?(${whole})(?:[.,](\\d{2}))?${NUMBER_END}`,
      speak: (g) => amount(g[2]!, g[3], g[1]!),
    },
    {
      name: 'money', // 3,50 € / 3,50€
      re: `(${whole})(?:[.,](\\d{2}))?\\s?(${symbols})(?![\\p{L}\\p{N}])`,
      speak: (g) => amount(g[1]!, g[2], g[3]!),
    },
    {
      name: 'time', // 12:30, 9:05 (not 12:30:15, a duration or a score)
      re: `(?<![\\p{N}:])([01]?\\d|2[0-3])[:h]([0-5]\\d)(?![\\p{N}:])${w.timeWord ? `(?:\\s+${w.timeWord}(?!\\p{L}))?` : ''}`,
      speak: (g) =>
        Number(g[2]) === 0 ? `${Number(g[1])}${w.oclock}` : `${Number(g[1])}${w.time[0]}${Number(g[2])}${w.time[1]}`,
    },
  ];
  if (units !== '') {
    rules.push({
      name: 'measure', // 5 km: espeak-ng spells the symbol
      re: `(\\d+(?:[.,]\\d+)?)\\s?(${units})(?![\\p{L}\\p{N}/])`,
      speak: (g) => {
        const [one, many] = w.units[g[2]!]!;
        const spokenNumber = w.decimalComma && g[1]!.includes(',') ? g[1]!.replace(',', ` ${w.decimalComma} `) : g[1]!;
        return `${spokenNumber} ${g[1] === '1' ? one : many}`;
      },
    });
  }
  if (w.dottedOrdinals) {
    rules.push({ name: 'ordinal', re: '(?<![\\p{N}.])(\\d+)\\.([ºª])', speak: (g) => `${g[1]}${g[2]}` });
  }
  if (w.dotThousands) {
    rules.push({
      name: 'cardinal', // 1.500.000: espeak-ng reads the dot as a decimal point
      re: `(?<![\\p{N}.,])\\d{1,3}(?:\\.\\d{3})+${NUMBER_END}`,
      speak: (g) => g[0]!.replace(/\./g, ''),
    });
  }
  if (w.decimalComma !== undefined) {
    rules.push({
      name: 'decimal', // 3,5: espeak-ng pauses at the comma instead of saying it
      re: `(?<![\\p{N},.])(\\d+),(\\d+)${NUMBER_END}`,
      speak: (g) => `${g[1]} ${w.decimalComma} ${g[2]}`,
    });
  }
  return [...MARKUP_SPANS, ...TYPOGRAPHY, ...rules, ...MARKUP_LEFTOVERS];
}

/** Japanese and Mandarin (not spoken here: the container refuses them): markup and typography only. */
export const MARKUP_ONLY_RULES: readonly Rule[] = [...MARKUP_SPANS, ...TYPOGRAPHY, ...MARKUP_LEFTOVERS];
