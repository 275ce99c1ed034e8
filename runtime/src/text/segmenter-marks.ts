// Marks the segmenter reads as a unit: list markers ("1.)", "2)", "b.", "• 9."), spaced
// ellipses (". . .") and clause marks, with the look-ahead each needs, and where a long piece is
// cut (pure, no state).
import { isLower, isOpen, isSpace, readTerminator, type Nesting, type TerminatorRun } from './segmenter-rules.ts';

/** A list marker at a token start: its length, its style ("n.)", "a.", "•n.", "•") and its number. */
export interface ListMarker {
  length: number;
  style: string;
  value: number;
}

const BULLETS = '•⁃‣◦▪';
const MARKER = new RegExp(
  `^(?:([${BULLETS}])[^\\S\\n]?)?(?:(\\d{1,3})|([a-z]))(\\.\\)|\\)|\\.)(?=\\s)|^([${BULLETS}])(?=\\s)`,
  'u',
);
/** The longest marker ("• 100.)") plus the whitespace after it. */
const MARKER_WINDOW = 9;

/**
 * The list marker at t[i] ("1.)", "2)", "10.", "b.", "• 9.", "⁃10.", "•"), null if there is
 * none, undefined while the text so far cannot tell.
 */
export function readListMarker(t: string, i: number, final: boolean): ListMarker | null | undefined {
  // cheap refusals first: this runs at every token start
  const c = t.charCodeAt(i);
  const bullet = BULLET_SET.has(t[i]!);
  if (!bullet && !(c >= 48 && c <= 57)) {
    if (c < 97 || c > 122) return null;
    const after = t[i + 1];
    if (after === undefined) return final ? null : undefined;
    if (after !== '.' && after !== ')') return null;
  }
  const head = t.slice(i, i + MARKER_WINDOW);
  // Decide only on a whole marker: its last token (after a bullet and a space, the next one)
  // ended by whitespace, or a full window, or the end of the text.
  const lead = bullet ? (head[1] === ' ' || head[1] === '\t' ? 2 : 1) : 0;
  const whole = final || head.length === MARKER_WINDOW || /\s/.test(head.slice(lead));
  if (!whole && PARTIAL.test(head)) return undefined;
  // not whole and no number marker can follow: a bullet and a space are a marker on their own
  const m = whole ? MARKER.exec(head) : lead === 2 ? MARKER.exec(head.slice(0, 2)) : null;
  if (m === null) return null;
  if (m[5] !== undefined) return { length: 1, style: m[5], value: 0 };
  const value = m[2] !== undefined ? Number(m[2]) : m[3]!.charCodeAt(0) - 96;
  return { length: m[0].length, style: `${m[1] ?? ''}${m[2] !== undefined ? 'n' : 'a'}${m[4]}`, value };
}

/** Any beginning of a marker ("•", "• 1", "2.", "b"). */
const PARTIAL = new RegExp(`^(?:[${BULLETS}][^\\S\\n]?)?(?:\\d{1,3}|[a-z])?(?:\\.\\)?|\\))?$`, 'u');
const BULLET_SET = new Set([...BULLETS]);

/**
 * Spaced dots after the "." at t[i] (". . ." or "word. . . ."): how many dots in all and where
 * the run ends; undefined while the text so far cannot tell. A single "." gives dots 1.
 */
export function readSpacedDots(t: string, i: number, final: boolean): { dots: number; end: number } | undefined {
  let r = i + 1;
  let dots = 1;
  for (;;) {
    if (r + 2 > t.length && !final) {
      // " ." may be about to follow: wait for it
      if (r === t.length || (t[r] === ' ' && r + 1 === t.length)) return undefined;
    }
    if (t[r] === ' ' && t[r + 1] === '.') {
      dots++;
      r += 2;
    } else break;
  }
  return { dots, end: r };
}

/**
 * The terminator run at t[i] as a sentence mark: a run to decide on (with `cutAt` when the
 * sentence ends inside it, after the full stop of "word. . . . Next"), a place to skip to when
 * it cannot end a sentence ("[...]", ". . ."), or undefined while the text cannot tell.
 */
export function readSentenceMark(
  t: string,
  i: number,
  nesting: Nesting,
  final: boolean,
  terminators?: ReadonlySet<string>,
): (TerminatorRun & { cutAt?: number }) | { skip: number } | undefined {
  const run = readTerminator(t, i, nesting, final, terminators);
  if (run === undefined) return undefined;
  if (run.runEnd > i + 1 && (t[i - 1] === '[' || t[i - 1] === '(')) return { skip: run.runEnd }; // "[...]"
  if (run.runEnd !== i + 1 || t[i] !== '.') return run;
  const dots = readSpacedDots(t, i, final);
  if (dots === undefined) return undefined;
  if (dots.dots < 3) return run;
  // ". . ." is an omission, never an end; " . . . ." ends the sentence after its last dot;
  // "word. . . ." is a full stop, then an omission that opens the next sentence
  if (dots.dots === 3) return { skip: dots.end };
  const tail = readTerminator(t, dots.end - 1, nesting, final, terminators);
  if (tail === undefined) return undefined;
  if (i === 0 || isSpace(t[i - 1]!)) return tail;
  if (tail.next === '' || tail.next === '\n' || isLower(tail.next)) return { skip: dots.end };
  return { ...tail, cutAt: i + 1 };
}

/**
 * Whether the clause mark at t[i] ends a clause: a space or a line break after it (none after
 * "、"), outside brackets, and not a comma after an abbreviation's dot ("Mon., Jan. 12", "e.g.,
 * this"). Undefined: the next character has not come yet.
 */
export function isClauseEnd(
  t: string,
  i: number,
  final: boolean,
  nesting: Nesting,
  unspacedMarks: ReadonlySet<string>,
): boolean | undefined {
  if (i + 1 === t.length && !final) return undefined;
  const nx = i + 1 < t.length ? t[i + 1]! : '';
  const afterAbbreviation = i > 0 && t[i - 1] === '.';
  const spaced = nx !== '' && (isSpace(nx) || unspacedMarks.has(t[i]!));
  return (nx === '\n' || spaced) && !isOpen(nesting) && !afterAbbreviation;
}

/** Where a piece past maxChars is cut: its last clause boundary past a third of it, else its last space, else hard. */
export function longCutAt(start: number, maxChars: number, clause: number, space: number): number {
  const limit = start + maxChars;
  if (clause > start + maxChars / 3 && clause <= limit) return clause;
  if (space > start && space <= limit) return space;
  return limit;
}
