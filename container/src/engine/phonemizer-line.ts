// What the Python phonemizer's espeak backend returns for one line of text, as misaki configures it
// (preserve_punctuation, with_stress, tie, language_switch='remove-flags', default separators):
// punctuation is kept out of espeak-ng and put back around the phonemes of the pieces between it.
// Re-implemented from bootphon/phonemizer (phonemizer/punctuation.py and
// phonemizer/backend/espeak/espeak.py at the commit docs/design/languages.md names): misaki calls
// it, and a JavaScript port of that behaviour does not exist.

/** phonemizer's default punctuation marks (_DEFAULT_MARKS). */
export const PUNCTUATION_MARKS = ';:,.!?¡¿—…"«»“”(){}[]';

const escaped = [...PUNCTUATION_MARKS].map((c) => c.replace(/[\\\]\[^-]/, (x) => `\\${x}`)).join('');
/** phonemizer's mark pattern: runs of marks with the spaces around them, as one match. */
const MARKS_RE = new RegExp(`(\\s*[${escaped}]+\\s*)+`, 'gu');

type Position = 'B' | 'E' | 'I' | 'A';
interface Mark {
  mark: string;
  position: Position;
}

/** Punctuation.preserve for one line: the pieces between marks (empty ones dropped) and the marks. */
export function preservePunctuation(line: string): { pieces: string[]; marks: Mark[] } {
  const matches = [...line.matchAll(MARKS_RE)];
  if (matches.length === 0) return { pieces: [line], marks: [] };
  if (matches.length === 1 && matches[0]![0] === line) return { pieces: [], marks: [{ mark: line, position: 'A' }] };
  const marks = matches.map((m, i): Mark => {
    let position: Position = 'I';
    if (i === 0 && line.startsWith(m[0])) position = 'B';
    else if (i === matches.length - 1 && line.endsWith(m[0])) position = 'E';
    return { mark: m[0], position };
  });
  const pieces: string[] = [];
  let rest = line;
  for (const { mark } of marks) {
    // Python's str.split at the first occurrence of the mark's text.
    const at = rest.indexOf(mark);
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at + mark.length);
  }
  pieces.push(rest);
  return { pieces: pieces.filter((p) => p !== ''), marks };
}

/**
 * Punctuation.restore for one line (word separator ' ', strip false): each phonemised piece ends
 * with the word separator; marks go back where they were, with their own spaces.
 */
export function restorePunctuation(phonemized: readonly string[], marks: readonly Mark[]): string[] {
  const text = [...phonemized];
  const queue = [...marks];
  const out: string[] = [];
  let pos = 0;
  while (text.length > 0 || queue.length > 0) {
    if (queue.length === 0) {
      for (const line of text) out.push(line.endsWith(' ') ? line : `${line} `);
      text.length = 0;
    } else if (text.length === 0) {
      out.push(queue.map((m) => m.mark).join(''));
      queue.length = 0;
    } else if (pos === 0) {
      // Every mark of a single line has index 0: after an E or A mark the line is done (pos 1)
      // and the pieces left go out without marks, the marks left after them (the branch below).
      const { mark, position } = queue.shift()!;
      if (text[0]!.endsWith(' ')) text[0] = text[0]!.slice(0, -1);
      if (position === 'B') text[0] = mark + text[0]!;
      else if (position === 'E') {
        out.push(text.shift()! + mark + (mark.endsWith(' ') ? '' : ' '));
        pos++;
      } else if (position === 'A') {
        out.push(mark + (mark.endsWith(' ') ? '' : ' '));
        pos++;
      } else if (text.length === 1) text[0] = text[0]! + mark;
      else {
        const first = text.shift()!;
        text[0] = first + mark + text[0]!;
      }
    } else {
      out.push(text.shift()!);
      pos++;
    }
  }
  return out;
}

/**
 * EspeakBackend._postprocess_line in tie mode: `clauses` are espeak-ng's clauses (tie form),
 * joined with spaces; language-switch flags such as (en) removed; every word followed by a space.
 */
export function postprocessLine(clauses: readonly string[]): string {
  let line = clauses.join(' ').trim().replaceAll('\n', ' ').replaceAll('  ', ' ');
  line = line.replace(/_+/g, '_').replace(/_ /g, ' ');
  line = line.replace(/\(.+?\)/g, '');
  if (line === '') return '';
  return line
    .split(' ')
    .map((word) => `${word.trim().replaceAll('\u0361', '^')} `)
    .join('');
}

/** phonemizer's phonemize([line])[0] with the espeak backend: `clauses` phonemises one piece. */
export function phonemizeLine(line: string, clauses: (piece: string) => string[]): string {
  const { pieces, marks } = preservePunctuation(line);
  const phonemized = pieces.map((piece) => postprocessLine(clauses(piece)));
  return restorePunctuation(phonemized, marks)[0] ?? '';
}
