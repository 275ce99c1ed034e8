// Money class: amounts in a currency symbol or code, with cents, scales and rates ("$20/mo").
// Done here for every currency: kokoro-js runs its $/£ rule after its year rule ("$2026" ->
// "20 dollars 26") and knows no €, ¥, ₹, ₩, "$5M" or "$0.02". Amounts keep digit grouping so
// that kokoro-js never reads them as years.
import type { Rule } from '../rules.ts';
import { spokenCardinal } from './number-words.ts';

/** symbol or prefix: [unit, units, subunit, subunits] */
const CURRENCIES: Record<string, [string, string, string, string]> = {
  $: ['dollar', 'dollars', 'cent', 'cents'],
  US$: ['US dollar', 'US dollars', 'cent', 'cents'],
  C$: ['Canadian dollar', 'Canadian dollars', 'cent', 'cents'],
  CA$: ['Canadian dollar', 'Canadian dollars', 'cent', 'cents'],
  A$: ['Australian dollar', 'Australian dollars', 'cent', 'cents'],
  AU$: ['Australian dollar', 'Australian dollars', 'cent', 'cents'],
  NZ$: ['New Zealand dollar', 'New Zealand dollars', 'cent', 'cents'],
  HK$: ['Hong Kong dollar', 'Hong Kong dollars', 'cent', 'cents'],
  '€': ['euro', 'euros', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
  '¥': ['yen', 'yen', 'sen', 'sen'],
  '₹': ['rupee', 'rupees', 'paisa', 'paise'],
  '₩': ['won', 'won', 'jeon', 'jeon'],
  USD: ['US dollar', 'US dollars', 'cent', 'cents'],
  EUR: ['euro', 'euros', 'cent', 'cents'],
  GBP: ['pound', 'pounds', 'penny', 'pence'],
  JPY: ['yen', 'yen', 'sen', 'sen'],
  INR: ['rupee', 'rupees', 'paisa', 'paise'],
  CAD: ['Canadian dollar', 'Canadian dollars', 'cent', 'cents'],
  AUD: ['Australian dollar', 'Australian dollars', 'cent', 'cents'],
  CHF: ['Swiss franc', 'Swiss francs', 'centime', 'centimes'],
  CNY: ['yuan', 'yuan', 'fen', 'fen'],
};

const SCALES: Record<string, string> = {
  k: 'thousand',
  K: 'thousand',
  m: 'million',
  M: 'million',
  mn: 'million',
  b: 'billion',
  B: 'billion',
  bn: 'billion',
  t: 'trillion',
  T: 'trillion',
  tn: 'trillion',
  thousand: 'thousand',
  million: 'million',
  billion: 'billion',
  trillion: 'trillion',
};

const PERIODS: Record<string, string> = {
  s: 'second',
  sec: 'second',
  min: 'minute',
  h: 'hour',
  hr: 'hour',
  hour: 'hour',
  d: 'day',
  day: 'day',
  wk: 'week',
  week: 'week',
  mo: 'month',
  mth: 'month',
  month: 'month',
  yr: 'year',
  year: 'year',
  y: 'year',
  user: 'user',
  person: 'person',
  seat: 'seat',
  GB: 'gigabyte',
  TB: 'terabyte',
  kg: 'kilogram',
  lb: 'pound',
};

const SYMBOL = '(?:US|CA?|AU?|NZ|HK)?\\$|[€£¥₹₩]';
const AMOUNT = '(?:\\d{1,3}(?:,\\d{3})+|\\d+)?(?:\\.\\d+)?';
const SCALE = '(?:\\s?(?:thousand|million|billion|trillion|bn|mn|tn|[bBmM])|[kKtT])(?![\\p{L}])';
const PER = `\\s?/\\s?(?:${Object.keys(PERIODS).join('|')})(?![\\p{L}])`;
/** One amount with a symbol before it: "$1,299.99", "€5M", "US$76.3 trillion", "$.50", "$20/mo". */
export const MONEY = `(?<![\\p{L}\\p{N}])(?:${SYMBOL})\\s?(?=\\.?\\d)${AMOUNT}(?:${SCALE})?(?:${PER})?`;
const CODES = 'USD|EUR|GBP|JPY|INR|CAD|AUD|CHF|CNY';
/** One amount with a currency code after it: "100 USD", "2.5 million EUR". */
export const MONEY_CODE = `(?<![\\p{L}\\p{N}.,])(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?(?:\\s(?:thousand|million|billion|trillion))?\\s(?:${CODES})(?![\\p{L}])`;

const PARSE = new RegExp(`^(${SYMBOL})?\\s?(\\d[\\d,]*)?(?:\\.(\\d+))?(${SCALE})?(${PER})?(?:\\s(${CODES}))?$`, 'u');

/** "$1,299.99" -> "1,299 dollars and 99 cents", "$0.02" -> "2 cents", "$20.506" -> "20.506 dollars". */
export function spokenMoney(written: string): string {
  const m = PARSE.exec(written.trim());
  if (m === null) return written;
  const [, symbol, whole, fractionRaw, scaleRaw, per, code] = m;
  const [unit, units, sub, subs] = CURRENCIES[symbol ?? code ?? '$'] ?? CURRENCIES.$!;
  const digits = (whole ?? '').replace(/,/g, '') || '0';
  const head = whole === undefined ? '' : spokenCardinal(digits); // "$.506": "point 5 0 6 dollars"
  const rate = per === undefined ? '' : ` per ${PERIODS[per.replace(/^\s?\/\s?/, '')]}`;
  const scale = scaleRaw === undefined ? undefined : SCALES[scaleRaw.trim()];
  if (scale !== undefined) return `${head}${fractionRaw ? `.${fractionRaw}` : ''} ${scale} ${units}${rate}`;
  // "$20.500" is 20 dollars 50 cents; "$20.506" has more than cents: a decimal amount
  const fraction = (fractionRaw ?? '').replace(/(?<=^\d\d)0+$/, '');
  if (fraction.length > 2) return `${head}.${fraction} ${units}${rate}`;
  const cents = fraction === '' ? 0 : Number(fraction.padEnd(2, '0'));
  const main = `${spokenCardinal(digits)} ${digits === '1' ? unit : units}`;
  if (cents === 0) return `${main}${rate}`;
  const small = `${cents} ${cents === 1 ? sub : subs}`;
  return `${Number(digits) === 0 ? small : `${main} and ${small}`}${rate}`;
}

export const MONEY_RULES: Rule[] = [
  { name: 'money', re: MONEY, speak: (g) => spokenMoney(g[0]!) },
  { name: 'money', re: MONEY_CODE, speak: (g) => spokenMoney(g[0]!) },
];
