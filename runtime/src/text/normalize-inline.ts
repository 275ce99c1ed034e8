// Inline speech rules: markdown spans, links, addresses, money, dates, units, symbols, emoji.
import type { SpeechBuilder } from './speech-map.ts';
import {
  ABBREVIATIONS,
  MONTH_PATTERN,
  UNIT_PATTERN,
  monthName,
  monthNumber,
  ordinal,
  spokenClock,
  spokenDate,
  spokenEmail,
  spokenHost,
  spokenMoney,
  spokenUnit,
} from './spoken-forms.ts';

interface Rule {
  re: string;
  /** Spoken form of the whole match, from its groups (g[0] is the whole match). */
  speak?: (g: Array<string | undefined>) => string;
  /** Speak only this group (1-based), normalised in turn; drop it if longer than maxInner. */
  inner?: number;
  maxInner?: number;
}

const FRACTIONS: Record<string, string> = {
  '1/2': 'one half',
  '½': 'one half',
  '1/3': 'one third',
  '⅓': 'one third',
  '2/3': 'two thirds',
  '⅔': 'two thirds',
  '1/4': 'one quarter',
  '¼': 'one quarter',
  '3/4': 'three quarters',
  '¾': 'three quarters',
  '24/7': '24 7',
};

const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';
const LINK_TARGET = '\\([^()\\s]*(?:\\s+"[^"]*")?\\)';

// Order matters only between rules that can match at the same position: the first one wins.
const RULES: Rule[] = [
  { re: '`{1,3}([^`\\n]+?)`{1,3}', inner: 1, maxInner: 40 }, // inline code: short code is read, long is dropped
  { re: `!\\[([^\\]\\n]*)\\]${LINK_TARGET}`, inner: 1 }, // image: its alt text
  { re: `\\[([^\\]\\n]+)\\]${LINK_TARGET}`, inner: 1 }, // link: its label
  { re: '<((?:https?|ftp)://[^>\\s]+)>', speak: (g) => spokenHost(g[1]!) },
  { re: '</?[A-Za-z][A-Za-z0-9-]*(?:\\s[^<>\\n]*)?/?>', speak: () => ' ' }, // HTML tags
  { re: '\\b(?:https?://|www\\.)[^\\s<>()\\[\\]{}"\']*[^\\s<>()\\[\\]{}"\'.,;:!?]', speak: (g) => spokenHost(g[0]!) },
  { re: '[\\p{L}\\p{N}._%+-]+@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+', speak: (g) => spokenEmail(g[0]!) },
  {
    re: '\\b(\\d{4})-(\\d{2})-(\\d{2})\\b',
    speak: (g) => spokenDate(Number(g[2]), Number(g[3]), g[1]) ?? g[0]!.replace(/-/g, ' '),
  },
  {
    re: `\\b(${MONTH_PATTERN})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\p{L}\\p{N}:])(?:,?\\s+(\\d{4})${NOT_WORD_AFTER})?`,
    speak: (g) => spokenDate(monthNumber(g[1]!), Number(g[2]), g[3]) ?? g[0]!,
  },
  {
    re: `${NOT_WORD_BEFORE}(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_PATTERN})${NOT_WORD_AFTER}(?:,?\\s+(\\d{4})${NOT_WORD_AFTER})?`,
    speak: (g) => {
      const day = Number(g[1]);
      if (day < 1 || day > 31) return g[0]!;
      return `the ${ordinal(day)} of ${monthName(g[2]!)}${g[3] === undefined ? '' : `, ${g[3]}`}`;
    },
  },
  {
    re: `([$€£¥₹])\\s?(\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.(\\d+))?(?:\\s?(k|K|M|B|bn|thousand|million|billion|trillion)(?![\\p{L}]))?`,
    speak: (g) => spokenMoney(g[1]!, g[2]!, g[3], g[4]),
  },
  // zero-padded and 24-hour times only: kokoro-js speaks 1:00-12:59 itself
  { re: '(?<![\\d:])(0\\d|1[3-9]|2[0-3]):([0-5]\\d)(?![\\d:])', speak: (g) => spokenClock(g[1]!, g[2]!) },
  { re: '(?<![\\d:])(\\d{1,2}:[0-5]\\d)([AaPp][Mm])(?![\\p{L}])', speak: (g) => `${g[1]} ${g[2]!.toLowerCase()}` }, // "10:30pm"
  { re: `(?<![\\d/])([123]/[234]|½|⅓|⅔|¼|¾|24/7)(?![\\d/])`, speak: (g) => FRACTIONS[g[1]!] ?? g[1]! },
  { re: `(?<![\\p{L}\\p{N}.])(\\d+(?:\\.\\d+)?)[x×]${NOT_WORD_AFTER}`, speak: (g) => `${g[1]} times` }, // "3x faster"
  { re: '(?<=\\d ?)×(?= ?\\d)', speak: () => ' times ' },
  {
    re: `(?<![\\p{L}\\p{N}.,])(\\d+(?:[.,]\\d+)*)\\s?(${UNIT_PATTERN})${NOT_WORD_AFTER}`,
    speak: (g) => spokenUnit(g[1]!, g[2]!),
  },
  {
    re: `${NOT_WORD_BEFORE}(e\\.g\\.|i\\.e\\.|approx\\.|vs\\.?|Prof\\.|Fig\\.|w/o|w/|[Nn]o\\.(?=\\s?\\d))(?![\\p{L}])`,
    speak: (g) => ABBREVIATIONS[g[1]!] ?? g[1]!,
  },
  { re: `${NOT_WORD_BEFORE}([CF])#${NOT_WORD_AFTER}`, speak: (g) => `${g[1]} sharp` },
  { re: '#(?=\\d)', speak: () => 'number ' },
  { re: '~(?=\\d)', speak: () => 'about ' },
  { re: '(?<=[\\p{L}\\p{N}])_+(?=[\\p{L}\\p{N}])', speak: () => ' ' }, // snake_case
  { re: '[*_~#`]+', speak: () => '' }, // emphasis, stray markers
  { re: '\\|+|->|=>|<-', speak: () => ' ' },
  {
    re:
      '(?:\\p{Extended_Pictographic}|[\\u{1F1E6}-\\u{1F1FF}\\u{1F3FB}-\\u{1F3FF}\\uFE0E\\uFE0F\\u200D\\u20E3]|' +
      '[•▪▫◦‣⁃►▸▶◀◂◆◇■□●○★☆✓✔✗✘✦✧➤➔→←↑↓↔⇒⇐⟶§¶†‡^\\\\])+',
    speak: () => ' ', // emoji and decorative symbols
  },
];

const groupCount = (re: string): number => new RegExp(`${re}|`, 'u').exec('')!.length - 1;
const COUNTS = RULES.map((r) => groupCount(r.re));
const OFFSETS: number[] = [];
for (let k = 0, next = 1; k < RULES.length; k++) {
  OFFSETS.push(next);
  next += 1 + COUNTS[k]!;
}
const COMBINED = new RegExp(RULES.map((r) => `(${r.re})`).join('|'), 'gdu');

/** Speaks source [from, to) into the builder: rule matches are replaced, the rest is copied. */
export function speakInline(b: SpeechBuilder, source: string, from: number, to: number): void {
  const text = source.slice(from, to);
  let at = 0;
  for (const m of text.matchAll(new RegExp(COMBINED))) {
    const k = OFFSETS.findIndex((o) => m[o] !== undefined);
    const rule = RULES[k]!;
    const o = OFFSETS[k]!;
    const start = m.index;
    const end = start + m[0].length;
    if (start > at) b.add(from + at, from + start, text.slice(at, start));
    const innerRange = rule.inner === undefined ? undefined : m.indices?.[o + rule.inner];
    if (rule.inner === undefined) {
      b.add(from + start, from + end, rule.speak!(m.slice(o, o + 1 + COUNTS[k]!)));
    } else if (innerRange === undefined || innerRange[1] - innerRange[0] > (rule.maxInner ?? Infinity)) {
      b.add(from + start, from + end, ' ');
    } else {
      b.add(from + start, from + innerRange[0], '');
      speakInline(b, source, from + innerRange[0], from + innerRange[1]);
      b.add(from + innerRange[1], from + end, '');
    }
    at = end;
  }
  if (at < text.length) b.add(from + at, to, text.slice(at));
}
