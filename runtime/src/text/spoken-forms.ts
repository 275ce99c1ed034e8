// Spoken forms for money, dates, times, units, abbreviations and web addresses.
//
// What is left to kokoro-js 1.2.1 and its espeak-ng (checked by phonemising with the installed
// package): cardinals ("42"), digit grouping ("1,299"), decimals ("2.5" -> "2 point 5"), years
// ("2026" -> "20 26"), 12-hour times ("10:30", "10:00" -> "10 o'clock"), ordinals ("30th"),
// percentages ("50%"), "&", "+", Dr./Mr./Mrs./Ms., "etc.", "am"/"pm". What it gets wrong or
// lacks is done here: kokoro-js's $/£ rule runs after its year rule, so "$2026" is spoken
// "20 dollars 26", and it knows no €, ¥, ₹ or "$5M"; ISO dates come out "2026 to 11 to 30";
// "Nov" is read as a word; units are spelt out ("5 GB" -> "G B"); 24-hour times keep their colon.

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "Nov", "Nov.", "Sept", "November" -> "November"; undefined if not a month. */
export function monthName(word: string): string | undefined {
  const w = word.replace(/\.$/, '').toLowerCase();
  if (w.length < 3) return undefined;
  return MONTHS.find((m) => m.toLowerCase() === w || (w.length <= 4 && m.toLowerCase().startsWith(w)));
}

/** "Nov" -> 11; 0 if not a month. */
export function monthNumber(word: string): number {
  const name = monthName(word);
  return name === undefined ? 0 : MONTHS.indexOf(name) + 1;
}

export const MONTH_PATTERN =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|' +
  'Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

/** 1 -> "1st", 22 -> "22nd", 13 -> "13th" (espeak-ng speaks these as ordinals). */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "Month Dth[, YYYY]" or undefined when the month or day is out of range. */
export function spokenDate(month: number, day: number, year?: string): string | undefined {
  const name = MONTHS[month - 1];
  if (name === undefined || day < 1 || day > 31) return undefined;
  return year === undefined ? `${name} ${ordinal(day)}` : `${name} ${ordinal(day)}, ${year}`;
}

/** Zero-padded and 24-hour times, which kokoro-js leaves alone: "09:05" -> "9 oh 5", "14:00" -> "14 hundred". */
export function spokenClock(hours: string, minutes: string): string {
  const h = Number(hours);
  const m = Number(minutes);
  const head = h === 0 ? 'zero' : String(h);
  if (m === 0) return h === 0 || h > 12 ? `${head} hundred` : `${head} o'clock`;
  return m < 10 ? `${head} oh ${m}` : `${head} ${m}`;
}

const CURRENCIES: Record<string, [string, string, string, string]> = {
  // symbol: [unit, units, subunit, subunits]
  $: ['dollar', 'dollars', 'cent', 'cents'],
  '€': ['euro', 'euros', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
  '¥': ['yen', 'yen', 'sen', 'sen'],
  '₹': ['rupee', 'rupees', 'paisa', 'paise'],
};

const SCALES: Record<string, string> = {
  k: 'thousand',
  K: 'thousand',
  M: 'million',
  B: 'billion',
  bn: 'billion',
  thousand: 'thousand',
  million: 'million',
  billion: 'billion',
  trillion: 'trillion',
};

/** Groups thousands so that kokoro-js never reads a 4-digit amount as a year. */
const grouped = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "$", "1,299", "99", undefined -> "1,299 dollars and 99 cents"; "$", "5", "2", "M" -> "5.2 million dollars". */
export function spokenMoney(symbol: string, whole: string, fraction?: string, scale?: string): string {
  const [unit, units, sub, subs] = CURRENCIES[symbol] ?? ['', '', '', ''];
  const digits = whole.replace(/,/g, '');
  const scaleWord = scale === undefined ? undefined : SCALES[scale];
  if (scaleWord !== undefined) {
    return `${grouped(digits)}${fraction ? `.${fraction}` : ''} ${scaleWord} ${units}`;
  }
  const main = `${grouped(digits)} ${digits === '1' ? unit : units}`;
  if (!fraction || /^0+$/.test(fraction)) return main;
  const cents = Number(fraction.padEnd(2, '0').slice(0, 2));
  return `${main} and ${cents} ${cents === 1 ? sub : subs}`;
}

const UNITS: Record<string, [string, string]> = {
  km: ['kilometer', 'kilometers'],
  m: ['meter', 'meters'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  mi: ['mile', 'miles'],
  ft: ['foot', 'feet'],
  kg: ['kilogram', 'kilograms'],
  g: ['gram', 'grams'],
  mg: ['milligram', 'milligrams'],
  oz: ['ounce', 'ounces'],
  l: ['liter', 'liters'],
  L: ['liter', 'liters'],
  ml: ['milliliter', 'milliliters'],
  mL: ['milliliter', 'milliliters'],
  ms: ['millisecond', 'milliseconds'],
  s: ['second', 'seconds'],
  sec: ['second', 'seconds'],
  min: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  hr: ['hour', 'hours'],
  hrs: ['hour', 'hours'],
  KB: ['kilobyte', 'kilobytes'],
  kB: ['kilobyte', 'kilobytes'],
  MB: ['megabyte', 'megabytes'],
  GB: ['gigabyte', 'gigabytes'],
  TB: ['terabyte', 'terabytes'],
  Mbps: ['megabit per second', 'megabits per second'],
  Gbps: ['gigabit per second', 'gigabits per second'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  kph: ['kilometer per hour', 'kilometers per hour'],
  mph: ['mile per hour', 'miles per hour'],
  W: ['watt', 'watts'],
  kW: ['kilowatt', 'kilowatts'],
  kWh: ['kilowatt hour', 'kilowatt hours'],
  mAh: ['milliamp hour', 'milliamp hours'],
  V: ['volt', 'volts'],
  px: ['pixel', 'pixels'],
  fps: ['frame per second', 'frames per second'],
  '°C': ['degree Celsius', 'degrees Celsius'],
  '℃': ['degree Celsius', 'degrees Celsius'],
  '°F': ['degree Fahrenheit', 'degrees Fahrenheit'],
  '℉': ['degree Fahrenheit', 'degrees Fahrenheit'],
  '°': ['degree', 'degrees'],
};

/** Longest first, so "km/h" wins over "km" and "ms" over "m". */
export const UNIT_PATTERN = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[/.]/g, '\\$&'))
  .join('|');

export function spokenUnit(number: string, unit: string): string {
  const [one, many] = UNITS[unit] ?? [unit, unit];
  return `${number} ${number === '1' ? one : many}`;
}

/** Abbreviations kokoro-js would spell out or read as a word. */
export const ABBREVIATIONS: Record<string, string> = {
  'e.g.': 'for example',
  'i.e.': 'that is',
  'approx.': 'approximately',
  'vs.': 'versus',
  vs: 'versus',
  'Prof.': 'Professor',
  'Fig.': 'figure',
  'w/o': 'without',
  'w/': 'with',
  'No.': 'number',
  'no.': 'number',
};

/** "https://www.docs.example.com/a?b" -> "docs dot example dot com"; odd hosts -> "a link". */
export function spokenHost(url: string): string {
  const host =
    url
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^www\./i, '')
      .split(/[/?#:]/)[0] ?? '';
  if (!/^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u.test(host) || /^[\d.]+$/.test(host) || host.length > 40) {
    return 'a link';
  }
  return host.split('.').join(' dot ');
}

/** "jane.doe@example.com" -> "jane dot doe at example dot com". */
export function spokenEmail(address: string): string {
  const [user = '', domain = ''] = address.split('@');
  const name = user.replace(/[_+]/g, ' ').split('.').filter(Boolean).join(' dot ');
  return `${name} at ${domain.split('.').join(' dot ')}`;
}
