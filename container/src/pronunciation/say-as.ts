// What SSML <say-as> makes of its text, as words for the G2P: characters/spell-out (letter by
// letter), telephone (digit by digit, in the number's groups), cardinal, ordinal and date. The
// interpret-as values are those of the W3C note "SSML 1.0 say-as attribute values"
// (https://www.w3.org/TR/ssml-sayas/); the readings are English and chosen here.
import { PronunciationError } from './pronunciation-error.ts';

export const SAY_AS = ['characters', 'spell-out', 'telephone', 'date', 'cardinal', 'ordinal'] as const;

const ONES = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen',
]; // prettier-ignore
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion'];
const ORDINAL: Record<string, string> = {
  one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
}; // prettier-ignore
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
  'December',
]; // prettier-ignore

function below1000(n: number): string {
  const words: string[] = [];
  if (n >= 100) words.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const rest = n % 100;
  if (rest > 0 || n === 0) {
    words.push(rest < 20 ? ONES[rest]! : `${TENS[Math.floor(rest / 10)]}${rest % 10 ? `-${ONES[rest % 10]}` : ''}`);
  }
  return words.join(' ');
}

/** A whole number below 10^15 in words ("one hundred twenty-three"). */
export function cardinalWords(n: number): string {
  if (n === 0) return 'zero';
  const words: string[] = [];
  for (let scale = SCALES.length - 1; scale >= 0; scale--) {
    const unit = 1000 ** scale;
    const group = Math.floor(n / unit) % 1000;
    if (group > 0) words.push(scale ? `${below1000(group)} ${SCALES[scale]}` : below1000(group));
  }
  return words.join(' ');
}

/** "twenty-three" -> "twenty-third". */
export function ordinalWords(n: number): string {
  const words = cardinalWords(n);
  return words.replace(/([a-z]+)$/, (last) => {
    if (ORDINAL[last]) return ORDINAL[last]!;
    if (last.endsWith('y')) return `${last.slice(0, -1)}ieth`;
    return `${last}th`;
  });
}

/** A year as people say it: 1984 "nineteen eighty-four", 2005 "two thousand five", 2024 "twenty twenty-four". */
function yearWords(y: number): string {
  if (y >= 2000 && y < 2010) return cardinalWords(y);
  if (y >= 1000 && y < 10000 && y % 100 === 0 && y % 1000 !== 0) return `${cardinalWords(y / 100)} hundred`;
  if (y >= 1000 && y < 10000 && y % 1000 !== 0) {
    const low = y % 100;
    return `${cardinalWords(Math.floor(y / 100))} ${low < 10 ? `oh ${ONES[low]}` : cardinalWords(low)}`;
  }
  return cardinalWords(y);
}

function wholeNumber(text: string, what: string): number {
  const digits = text.replace(/[,\s]/g, '');
  if (!/^\d{1,15}$/.test(digits))
    throw new PronunciationError(`<say-as interpret-as="${what}"> needs a whole number, got ${JSON.stringify(text)}`);
  return Number(digits);
}

const letters = (text: string) => [...text.replace(/\s+/g, '')].join(' ');

const DATE_FORMATS = ['mdy', 'dmy', 'ymd', 'md', 'dm', 'ym', 'my', 'd', 'm', 'y'];

function dateWords(text: string, format: string): string {
  if (!DATE_FORMATS.includes(format)) {
    throw new PronunciationError(
      `<say-as interpret-as="date"> format ${JSON.stringify(format)} is not one of ${DATE_FORMATS.join(', ')}`,
    );
  }
  const fields = text.trim().split(/[-/.\s]+/);
  if (fields.length !== format.length || fields.some((f) => !/^\d{1,4}$/.test(f))) {
    throw new PronunciationError(`<say-as interpret-as="date" format="${format}"> cannot read ${JSON.stringify(text)}`);
  }
  const at = (c: string) => (format.includes(c) ? Number(fields[format.indexOf(c)]) : undefined);
  const [d, m, y] = [at('d'), at('m'), at('y')];
  if ((m !== undefined && (m < 1 || m > 12)) || (d !== undefined && (d < 1 || d > 31))) {
    throw new PronunciationError(
      `<say-as interpret-as="date" format="${format}">: ${JSON.stringify(text)} is not a date`,
    );
  }
  const month = m === undefined ? undefined : MONTHS[m - 1]!;
  const day = d === undefined ? undefined : `the ${ordinalWords(d)}`;
  const year = y === undefined ? undefined : yearWords(y);
  if (month && day) return [`${month} ${day.slice(4)}`, year].filter(Boolean).join(', ');
  return [day, month, year].filter(Boolean).join(' ');
}

/** The words `text` is read as under <say-as interpret-as=... format=...>. */
export function sayAs(text: string, interpretAs: string, format: string | undefined): string {
  switch (interpretAs) {
    case 'characters':
    case 'spell-out':
      return letters(text);
    case 'telephone':
      // Digit by digit; each group of the number a phrase of its own.
      return text
        .split(/[^0-9A-Za-z+]+/)
        .filter(Boolean)
        .map((group) => [...group.replace('+', '')].map((c) => (/\d/.test(c) ? ONES[Number(c)] : c)).join(' '))
        .join(', ');
    case 'cardinal':
      return cardinalWords(wholeNumber(text, interpretAs));
    case 'ordinal':
      return ordinalWords(wholeNumber(text.replace(/(st|nd|rd|th)$/i, ''), interpretAs));
    case 'date':
      return dateWords(text, format ?? 'mdy');
    default:
      throw new PronunciationError(
        `<say-as interpret-as="${interpretAs}"> is not supported; supported: ${SAY_AS.join(', ')}`,
      );
  }
}
