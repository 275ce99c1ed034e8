// English number words for the forms espeak-ng cannot read from digits ("100th", "32nds", digit
// by digit): written here rather than with a library because the agent normalises every sentence
// on its hot path, and to-words 5.7.0 (the best-kept candidate) takes ~50 µs per ordinal against
// ~1 µs here; cardinals in running text stay digits, which espeak-ng reads itself.

const ONES = [
  ...['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'],
  ...['eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'],
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion', 'quintillion', 'sextillion'];

function belowThousand(n: number): string[] {
  const words: string[] = [];
  if (n >= 100) words.push(ONES[Math.floor(n / 100)]!, 'hundred');
  const rest = n % 100;
  if (rest >= 20) words.push(rest % 10 === 0 ? TENS[rest / 10]! : `${TENS[Math.floor(rest / 10)]} ${ONES[rest % 10]}`);
  else if (rest > 0 || words.length === 0) words.push(ONES[rest]!);
  return words;
}

/** "1234" -> "one thousand two hundred thirty four"; past 24 digits, digit by digit in words. */
export function cardinalWords(digits: string): string {
  const clean = digits.replace(/^0+(?=\d)/, '');
  if (!/^\d+$/.test(clean)) throw new RangeError(`cardinalWords: not a whole number: ${JSON.stringify(digits)}`);
  if (clean.length > 24) return [...clean].map((d) => ONES[Number(d)]).join(' ');
  const groups: number[] = [];
  for (let end = clean.length; end > 0; end -= 3) groups.unshift(Number(clean.slice(Math.max(0, end - 3), end)));
  const words: string[] = [];
  groups.forEach((g, i) => {
    const scale = SCALES[groups.length - 1 - i]!;
    if (g === 0 && groups.length > 1) return;
    words.push(...belowThousand(g));
    if (scale !== '') words.push(scale);
  });
  return words.join(' ');
}

const IRREGULAR: Record<string, string> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** "first", "twentieth", "one hundredth", "two thousand seventh". */
export function ordinalWords(digits: string): string {
  const words = cardinalWords(digits).split(' ');
  const last = words.pop()!;
  const ordinal = IRREGULAR[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words, ordinal].join(' ');
}

/** 1 -> "1st", 22 -> "22nd", 13 -> "13th" (espeak-ng speaks these as ordinals below 100 and between hundreds). */
export function ordinalDigits(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** An ordinal espeak-ng reads right: digits unless they end in "00" ("100th" is read "one hundred th"). */
export function spokenOrdinal(digits: string): string {
  const n = digits.replace(/,/g, '');
  return /00$/.test(n) || n.length > 6 ? ordinalWords(n) : ordinalDigits(Number(n));
}

/** "5678" -> "5 6 7 8": espeak-ng reads each digit. */
export const digitByDigit = (digits: string): string => digits.replace(/\D/g, '').split('').join(' ');

/** Groups thousands ("4567" -> "4,567") so that kokoro-js never reads a cardinal as a year. */
export const grouped = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * A whole number as espeak-ng should read it: grouped digits up to trillions, words beyond.
 * kokoro-js drops the grouping commas, and espeak-ng then reads 1901-1999 as "nineteen hundred
 * ..." ("1,925" -> "nineteen hundred twenty five"): those are written "1 thousand 925".
 */
export function spokenCardinal(digits: string): string {
  const n = digits.replace(/,/g, '').replace(/^0+(?=\d)/, '');
  if (/^19\d\d$/.test(n) && !n.endsWith('00')) return `1 thousand ${Number(n.slice(1))}`;
  return n.length > 15 ? cardinalWords(n) : grouped(n);
}
