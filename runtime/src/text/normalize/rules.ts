// The inline rule engine, shared by every language: a language is an ordered list of rules, one
// combined regular expression scans a span once, and each match is replaced by its rule's spoken
// form (never scanned again: no rule expands another's output), the rest copied verbatim.
import type { SpeechBuilder } from '../speech-map.ts';

/** The text around a match, for rules that read context ("on the 26th May": "the" is there). */
export interface MatchContext {
  /** The span's text before the match, at most CONTEXT characters of it. */
  before: string;
  /** The span's text after the match, at most CONTEXT characters of it. */
  after: string;
}

/**
 * How much context a rule sees on each side: enough for the words it reads ("the"), and bounded,
 * so that a line of many matches costs linear time, not a copy of the line per match.
 */
export const CONTEXT = 64;

export type Groups = ReadonlyArray<string | undefined>;

export interface Rule {
  /** The semiotic class or concern the rule belongs to (documentation and debugging). */
  name: string;
  /** Regular expression source (unicode mode); its groups are numbered from 1 for `speak`. */
  re: string;
  /** Spoken form of the whole match, from its groups (g[0] is the whole match). */
  speak?: (g: Groups, context: MatchContext) => string;
  /** Speak only this group (1-based), normalised in turn; drop it if longer than maxInner. */
  inner?: number;
  maxInner?: number;
  /**
   * Pass the whole match on verbatim, for the TTS to read (misaki's `[word](/phonemes/)`), as three
   * pieces of the map, so that this group (1-based), the word shown, maps to itself.
   */
  keep?: number;
}

/** Number of capturing groups in a regular expression source. */
export const groupCount = (re: string): number => new RegExp(`${re}|`, 'u').exec('')!.length - 1;

/** A language's rules compiled into one scanner. */
export interface RuleSet {
  rules: readonly Rule[];
  combined: RegExp;
  offsets: number[];
  counts: number[];
}

/**
 * Compiles rules in priority order: at one position the first rule that matches wins. A rule's
 * match must start at a word's start or on a character that is neither a letter nor a space.
 */
export function compileRules(rules: readonly Rule[]): RuleSet {
  const counts = rules.map((r) => groupCount(r.re));
  const offsets: number[] = [];
  for (let k = 0, next = 1; k < rules.length; k++) {
    offsets.push(next);
    next += 1 + counts[k]!;
  }
  // No rule starts on an ASCII space or inside a word (a letter after a letter): saying so up front
  // spares the engine trying every rule at most positions (the normaliser runs per sentence).
  const combined = new RegExp(
    `(?=[^ \\t\\n\\r])(?:(?<!\\p{L})|(?!\\p{L}))(?:${rules.map((r) => `(${r.re})`).join('|')})`,
    'gdu',
  );
  return { rules, combined, offsets, counts };
}

/**
 * The longest span the rules read at once: a longer line is read in windows cut at whitespace
 * (hard only in a run of WINDOW characters without any), so that a rule that scans ahead from many
 * starts costs O(WINDOW) per start at worst, never O(line).
 */
export const WINDOW = 1024;

/** Speaks source [from, to) into the builder: rule matches are replaced, the rest is copied. */
export function speakInline(set: RuleSet, b: SpeechBuilder, source: string, from: number, to: number): void {
  for (let at = from; at < to;) {
    const end = windowEnd(source, at, to);
    speakWindow(set, b, source, at, end);
    at = end;
  }
}

/** Where the window from `at` ends: `to`, else after the last whitespace in reach, else hard. */
function windowEnd(source: string, at: number, to: number): number {
  if (to - at <= WINDOW) return to;
  let end = at + WINDOW;
  while (end > at + WINDOW / 2 && !/\s/.test(source[end - 1]!)) end--;
  if (end === at + WINDOW / 2) end = at + WINDOW;
  // never between the halves of a surrogate pair
  const code = source.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function speakWindow(set: RuleSet, b: SpeechBuilder, source: string, from: number, to: number): void {
  const text = source.slice(from, to);
  // One compiled scanner, reused: cloning it per call would compile it again. Matches are read
  // first, as inner spans call this again on the same scanner.
  const re = set.combined;
  const matches: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0] === '')
      re.lastIndex++; // an empty match (a rule that is all look-arounds) speaks nothing
    else matches.push(m);
  }
  let at = 0;
  for (const m of matches) {
    let k = 0;
    while (m[set.offsets[k]!] === undefined) k++;
    const rule = set.rules[k]!;
    const o = set.offsets[k]!;
    const start = m.index;
    const end = start + m[0].length;
    if (start > at) b.add(from + at, from + start, text.slice(at, start));
    const innerRange = rule.inner === undefined ? undefined : m.indices?.[o + rule.inner];
    const kept = rule.keep === undefined ? undefined : m.indices?.[o + rule.keep];
    if (kept !== undefined) {
      // indices are offsets in `text` (the span), as `start` and `end` are
      const [a, z] = kept;
      b.add(from + start, from + a, text.slice(start, a));
      b.add(from + a, from + z, text.slice(a, z));
      b.add(from + z, from + end, text.slice(z, end));
    } else if (rule.inner === undefined) {
      const groups = m.slice(o, o + 1 + set.counts[k]!);
      const context = {
        before: text.slice(Math.max(0, start - CONTEXT), start),
        after: text.slice(end, end + CONTEXT),
      };
      b.add(from + start, from + end, rule.speak!(groups, context));
    } else if (innerRange === undefined || innerRange[1] - innerRange[0] > (rule.maxInner ?? Infinity)) {
      b.add(from + start, from + end, ' ');
    } else {
      b.add(from + start, from + innerRange[0], '');
      speakWindow(set, b, source, from + innerRange[0], from + innerRange[1]);
      b.add(from + innerRange[1], from + end, '');
    }
    at = end;
  }
  if (at < text.length) b.add(from + at, to, text.slice(at));
}
