// Character classes and the sentence-end decision used by SentenceSegmenter (pure, no state).

/** Characters that may end a sentence; runs such as "?!" or "..." count as one terminator. */
export const TERMINATORS = new Set(['.', '!', '?', '…']);

/**
 * Characters that may follow a terminator and still belong to its sentence: closing quotes and
 * brackets, and the markdown emphasis/code markers LLMs put after a full stop ("**Done.**").
 */
export const CLOSERS = new Set(['"', "'", '”', '’', ')', ']', '}', '»', '*', '_', '`', ...'」』》）】〉']);

/** Clause boundaries (when followed by whitespace) for the early first piece and long sentences. */
export const CLAUSE_MARKS = new Set([',', ';', ':', '—', '–']);

// CJK brackets and quotes too: "《摔跤吧！爸爸》" is one title, not a sentence end.
const OPENING = new Set(['(', '[', '{', '“', '«', ...'「『《（【〈']);
const CLOSING = new Set([')', ']', '}', '”', '»', ...'」』》）】〉']);

/** Bracket/quote nesting: no sentence or clause cut happens while either is open. */
export interface Nesting {
  depth: number;
  straightQuote: boolean;
}

export function stepNesting(state: Nesting, c: string): Nesting {
  if (OPENING.has(c)) return { depth: state.depth + 1, straightQuote: state.straightQuote };
  if (CLOSING.has(c)) return { depth: Math.max(0, state.depth - 1), straightQuote: state.straightQuote };
  // A straight double quote cannot say whether it opens or closes: toggling is the only rule that
  // is deterministic in a stream. Apostrophes are ignored (too often part of a word).
  if (c === '"') return { depth: state.depth, straightQuote: !state.straightQuote };
  return state;
}

export const isOpen = (s: Nesting): boolean => s.depth > 0 || s.straightQuote;

/** Horizontal whitespace (newlines are handled separately: they are boundaries). */
export function isSpace(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13 && code !== 10);
  return /\s/u.test(c);
}

export function isAlnum(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return /[\p{L}\p{N}]/u.test(c);
}

export const isLower = (c: string): boolean => /\p{Ll}/u.test(c);
const isUpper = (c: string): boolean => /\p{Lu}/u.test(c);

/**
 * Abbreviations after which a full stop never ends a sentence: they are titles or lead-ins
 * followed by a name or phrase ("Dr. Smith", "e.g. Paris", "vs. Boston").
 */
const NEVER_END = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'st',
  'mt',
  'ft',
  'gen',
  'capt',
  'lt',
  'col',
  'sgt',
  'rev',
  'hon',
  'pres',
  'gov',
  'sen',
  'rep',
  'vs',
  'v',
  'approx',
  'e.g',
  'i.e',
  'cf',
  'ca',
  'al',
  'esp',
  'incl',
  'dept',
  'est',
  'min',
  'max',
  'avg',
  'ave',
  'blvd',
  'rd',
]);

/** Abbreviations that do not end a sentence when a number follows ("No. 5", "Fig. 3", "Jan. 5"). */
const BEFORE_NUMBER = new Set([
  'no',
  'n°',
  'nº',
  'nos',
  'nr',
  'fig',
  'figs',
  'vol',
  'ch',
  'chap',
  'sec',
  'p',
  'pp',
  'pg',
  'art',
  'eq',
  'ex',
  'op',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** Abbreviated weekdays: title case, they start a written date ("Tue. Dec. 1", "Fri. 5 Dec."). */
const WEEKDAYS = new Set(['mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun']);

/** Month names and abbreviations, for a date after an abbreviated weekday. */
const MONTHS = new Set([
  ...['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october'],
  ...['november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'],
]);

/** Reference abbreviations that may number with a Roman numeral ("Vol. II", "Ch. IV", "Sec. XII"). */
const BEFORE_ROMAN = new Set(['vol', 'ch', 'chap', 'sec', 'art', 'pp', 'p', 'no']);

const isTitle = (word: string): boolean => /^\p{Lu}/u.test(word);

/**
 * After an abbreviated weekday and a capital letter: whether a month and a day number follow
 * ("Tue. Dec. 1", "Tue. December 1"), so that the run is one date; undefined until the text
 * (`rest`, from the capital letter on) can tell.
 */
function monthAndDayFollow(rest: string, final: boolean): boolean | undefined {
  const name = /^\p{L}+/u.exec(rest)![0];
  if (name.length === rest.length) return final ? false : undefined;
  if (!MONTHS.has(name.toLowerCase())) return false;
  const after = /^\.?[^\S\n]*/.exec(rest.slice(name.length))![0];
  const at = name.length + after.length;
  if (at === rest.length) return final ? false : undefined;
  return /\p{N}/u.test(rest[at]!);
}

/**
 * Decides whether a terminator run ends a sentence, given the word before it (leading quotes and
 * brackets stripped), whether that word starts its line, and the next non-space character (never a
 * newline: a newline is a boundary on its own). Called only when whitespace follows the run.
 * `rest` is the text from `next` on (as far as it is known) and `final` whether more may come: a
 * date after an abbreviated weekday, or the word after "U.S.", needs to see past `next`, and the
 * answer is undefined (wait for more text) until it can. `before` is the piece before the word.
 */
export function endsSentence(
  run: string,
  word: string,
  wordStartsLine: boolean,
  next: string,
  rest: string = next,
  final = true,
  before = '',
): boolean | undefined {
  if (isLower(next)) return false; // "approx. five", "Wait... what", "10 a.m. tomorrow"
  const ellipsis = run.includes('…') || run.startsWith('..');
  if (ellipsis) return isUpper(next) || !isAlnum(next); // "Wait... 3 more" stays one sentence
  if (run !== '.') return true; // "!", "?", "?!"
  const lower = word.toLowerCase();
  if (NEVER_END.has(lower)) return false;
  if (BEFORE_NUMBER.has(lower) && /\p{N}/u.test(next)) return false;
  if (isTitle(word) && WEEKDAYS.has(lower)) {
    // "Tue. 1 Dec.", "Tue. Dec. 1", "Tue. December 1": one date. "On Tue. Then we left." cuts.
    if (/\p{N}/u.test(next)) return false;
    if (isUpper(next)) {
      const dated = monthAndDayFollow(rest, final);
      if (dated === undefined) return undefined;
      if (dated) return false;
    }
  }
  // "Vol. II", "Ch. IV": a Roman numeral of two or more letters numbers the reference (a lone "I"
  // stays a cut: "No. I think not.").
  if (isTitle(word) && BEFORE_ROMAN.has(lower) && isUpper(next)) {
    const numeral = /^[IVXLCDM]+/.exec(rest)?.[0] ?? '';
    if (numeral.length === rest.length && !final) return undefined;
    if (numeral.length >= 2 && !/\p{L}/u.test(rest[numeral.length] ?? '')) return false;
  }
  if (wordStartsLine && /^(?:\d{1,3}|[a-z])$/.test(word)) return false; // list marker "1. ", "a. "
  if (/^[ap]\.m$/i.test(word)) {
    // "At 5 a.m. Mr. Smith went": a time that opens the sentence is not its end
    return !/^(?:at|by|from|until|till|after|before|around|since)\s+\S+\s*$/i.test(before);
  }
  if (word === 'I') {
    // "you and I. Did you": the pronoun ends it; "Albert I. Jones": an initial after a name
    if (!/\p{Lu}\p{Ll}*\s+$/u.test(before)) return true;
    return startsSentence(rest, final);
  }
  // Upper-case dotted acronyms ("U.S.", "E.U."): a sentence end only before a word that opens
  // sentences ("I live in the U.S. How about you?", not "the U.S. Army").
  if (/^(?:\p{Lu}\.)+\p{Lu}$/u.test(word)) return startsSentence(rest, final);
  // Initials ("J. K. Rowling"): a missed cut only costs latency, a wrong one breaks prosody.
  if (/^\p{Lu}$/u.test(word)) return false;
  return true;
}

/** Words that open sentences far more often than they follow an acronym or an initial. */
const STARTERS = new Set(
  (
    'I We You He She It They The This That These Those There Here How What When Where Why Who Which ' +
    'A An My Our Your His Her Its Their But And So Then If In On At For Yes No Please Let Now Also ' +
    'However After Before Today Did Do Does Is Are Was Were Can Could Will Would Should Might Must As ' +
    'All Some Many Most One Each Every To With From By Not Thanks Thank Sure Okay Well Next Finally'
  ).split(' '),
);

/** Whether `rest` opens with a sentence starter; undefined until its first word is complete. */
function startsSentence(rest: string, final: boolean): boolean | undefined {
  const word = /^\p{L}+/u.exec(rest)?.[0] ?? '';
  if (word.length === rest.length && !final) return undefined;
  return STARTERS.has(word);
}

/**
 * At a line start: where its indentation ends and which code fence it opens or closes ('' for
 * none; up to 3 spaces of indentation). Undefined when the text so far cannot tell yet.
 */
export function readLineStart(t: string, i: number, final: boolean): { fence: string; indentEnd: number } | undefined {
  let j = i;
  while (j < t.length && j - i < 4 && (t[j] === ' ' || t[j] === '\t')) j++;
  const head = t.slice(j, j + 3);
  const indented = j - i >= 4;
  if (!final && !indented && head.length < 3 && ('```'.startsWith(head) || '~~~'.startsWith(head))) return undefined;
  return { fence: !indented && (head === '```' || head === '~~~') ? head : '', indentEnd: j };
}

export interface TerminatorRun {
  runEnd: number;
  closersEnd: number;
  /** Whether whitespace follows the closers. */
  spaced: boolean;
  /** The next non-space character after them ('' at the end of the text). */
  next: string;
  /** Where `next` is in the text. */
  nextAt: number;
  /** Nesting after the closers. */
  nesting: Nesting;
}

/** Reads the terminator run at t[i], its closers and what follows; undefined until the text tells. */
export function readTerminator(
  t: string,
  i: number,
  nesting: Nesting,
  final: boolean,
  terminators: ReadonlySet<string> = TERMINATORS,
): TerminatorRun | undefined {
  const n = t.length;
  let r = i;
  while (r < n && terminators.has(t[r]!)) r++;
  let k = r;
  let nest = nesting;
  while (k < n && CLOSERS.has(t[k]!)) nest = stepNesting(nest, t[k++]!);
  let m = k;
  while (m < n && isSpace(t[m]!)) m++;
  if (m === n && !final) return undefined;
  return { runEnd: r, closersEnd: k, spaced: m > k, next: m < n ? t[m]! : '', nextAt: m, nesting: nest };
}
