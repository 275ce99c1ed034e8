// Address class: street suffixes ("1428 Elm St." -> "1428 Elm Street"), compass points after a
// house number ("1211 E Arques Ave" -> "East Arques Avenue"), "Apt." and "Ste.", US state codes
// before a ZIP code or after a city ("Santa Clara, CA 95051" -> "California 9 5 0 5 1").
// "St." before a name stays for kokoro-js and espeak-ng, which read it "Saint".
import type { Rule } from '../rules.ts';
import { digitByDigit } from './number-words.ts';

const SUFFIXES: Record<string, string> = {
  St: 'Street',
  Ave: 'Avenue',
  Av: 'Avenue',
  Blvd: 'Boulevard',
  Rd: 'Road',
  Ln: 'Lane',
  Ct: 'Court',
  Pl: 'Place',
  Pkwy: 'Parkway',
  Hwy: 'Highway',
  Expy: 'Expressway',
  Fwy: 'Freeway',
  Ter: 'Terrace',
  Sq: 'Square',
  Cir: 'Circle',
  Trl: 'Trail',
  Dr: 'Drive',
};
const SUFFIX = Object.keys(SUFFIXES).join('|');
const suffixAnyCase = `(?:${SUFFIX}|${SUFFIX.toLowerCase()}|${SUFFIX.toUpperCase()})`;

const COMPASS: Record<string, string> = {
  N: 'North',
  S: 'South',
  E: 'East',
  W: 'West',
  NE: 'Northeast',
  NW: 'Northwest',
  SE: 'Southeast',
  SW: 'Southwest',
};

const STATES: Record<string, string> = {
  ...{ AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado' },
  ...{ CT: 'Connecticut', DE: 'Delaware', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho' },
  ...{ IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine' },
  ...{ MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri' },
  ...{ MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico' },
  ...{ NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon' },
  ...{ PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee' },
  ...{ TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia', WA: 'Washington', WV: 'West Virginia' },
  ...{ WI: 'Wisconsin', WY: 'Wyoming', DC: 'D C' },
};
/** Codes that are also words or common abbreviations: a state only before a ZIP code. */
const AMBIGUOUS = new Set(['OK', 'OR', 'IN', 'ME', 'HI', 'ID', 'OH', 'AL', 'LA', 'PA', 'MA', 'DE', 'CO', 'MD', 'MS']);
const STATE = Object.keys(STATES).join('|');

/** "2788" -> "27 88", "123" -> "1 23", "708" -> "7 oh 8": house numbers as Americans say them. */
function houseNumber(n: string): string {
  if (n.length !== 3) return n; // four digits: kokoro-js reads them in pairs already
  const tail = Number(n.slice(1));
  return tail === 0 ? `${n[0]} hundred` : tail < 10 ? `${n[0]} oh ${tail}` : `${n[0]} ${tail}`;
}

const NAME = "\\p{Lu}[\\p{L}'’]*";

export const ADDRESS_RULES: Rule[] = [
  {
    // "1428 Elm St", "1211 E Arques Ave", "708 N 1st St", "2 San Tomas hwy"
    name: 'address',
    re: `(?<![\\p{L}\\p{N}.,])(\\d{1,5})\\s(?:(N|S|E|W|NE|NW|SE|SW)\\s)?((?:(?:${NAME}|\\d+(?:st|nd|rd|th))\\s){1,3})(${suffixAnyCase})\\b(?:\\.(?=\\s\\p{Ll}|,))?`,
    speak: (g) => {
      const [, n = '', compass, name = '', suffix = ''] = g;
      const word = SUFFIXES[suffix[0]!.toUpperCase() + suffix.slice(1).toLowerCase()] ?? suffix;
      return `${houseNumber(n)} ${compass === undefined ? '' : `${COMPASS[compass]} `}${name}${word}`;
    },
  },
  {
    // a street without a house number: "on Main St." (a capitalised name, then the suffix, then no name)
    name: 'address',
    re: `(?<=\\b${NAME}\\s)(?:St|Ave|Blvd|Rd|Ln|Hwy|Pkwy|Expy)\\b(?!\\.?\\s\\p{Lu}\\p{Ll})`,
    speak: (g) => SUFFIXES[g[0]!]!,
  },
  { name: 'address', re: '\\b(?:Apt|APT)\\.?(?=\\s?#?\\d)', speak: () => 'Apartment' },
  { name: 'address', re: '\\b(?:Ste|STE)\\.?(?=\\s?#?\\d)', speak: () => 'Suite' },
  {
    // "CA 95051", "NY 10001-1234": a state code and its ZIP code
    name: 'address',
    re: `(?<=[\\p{L}.],?\\s)(${STATE})\\s(\\d{5})(?:-(\\d{4}))?(?![\\p{L}\\p{N}])`,
    speak: (g) => `${STATES[g[1]!]} ${digitByDigit(g[2]!)}${g[3] === undefined ? '' : ` ${digitByDigit(g[3])}`}`,
  },
  {
    // "Santa Clara, CA" and "City, NY": a state code after a city and a comma, not a word
    name: 'address',
    re: `(?<=\\p{Lu}\\p{Ll}+,\\s)(${STATE})(?=[,.]?(?:\\s|$))(?![\\p{L}])`,
    speak: (g) => (AMBIGUOUS.has(g[1]!) ? g[1]! : STATES[g[1]!]!),
  },
  {
    // "ZIP 95051", "zip code 95051"
    name: 'address',
    re: '(?<=\\b(?:ZIP|zip|Zip)(?: code)?\\s)\\d{5}(?:-\\d{4})?(?![\\p{L}\\p{N}])',
    speak: (g) => digitByDigit(g[0]!),
  },
];
