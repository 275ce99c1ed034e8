// Turns an LLM's markdown-ish text into what Kokoro should speak, with a map back to the source.
// Block structure (fences, tables, headings, lists) is read here; inline text by a language's
// rules (normalize/: the engine, and one folder of rules per language).
import { rulesFor, type Language } from './normalize/languages.ts';
import { speakInline, type RuleSet } from './normalize/rules.ts';
import { SpeechBuilder, type NormalizedText } from './speech-map.ts';

export { sourceRange, type NormalizedText, type SpeechSegment } from './speech-map.ts';
export { LANGUAGES, type Language } from './normalize/languages.ts';

export interface NormalizeOptions {
  /** The language whose rules read the text (ISO 639-1, normalize/languages.ts). Default 'en'. */
  language?: Language;
}

const FENCE = /^ {0,3}(```|~~~)/;
// No two whitespace runs meet ("\s*\|?\s*"): on a long line of spaces they would be tried in every split.
const TABLE_RULE = /^\s*(?:\|\s*)?:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*(?:\|\s*)?$/;
const HORIZONTAL_RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}(?:>\s?)+/;
const HEADING = /^\s{0,3}#{1,6}(?:[ \t]+|$)/;
const CLOSING_HASHES = /[ \t]+#+[ \t]*$/;
const BULLET = /^\s*[-*+•][ \t]+(?:\[[ xX]\][ \t]+)?/;
const TABLE_ROW = /^\s*\|/;

/**
 * Normalises text for speech: markdown structure, code blocks, links, emoji and symbols are not
 * read aloud; numbers, money, dates, times, measures, telephone numbers, addresses and the other
 * classes become words where kokoro-js and espeak-ng would not say them well (the split of work:
 * docs/design/text-normalisation.md). Works on one piece or a whole answer; segment offsets are
 * relative to `text`.
 */
export function normalizeForSpeech(text: string, options: NormalizeOptions = {}): NormalizedText {
  if (typeof text !== 'string') throw new TypeError(`normalizeForSpeech: text must be a string, got ${typeof text}`);
  const rules = rulesFor(options.language ?? 'en');
  const b = new SpeechBuilder();
  let fence = '';
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const marker = FENCE.exec(line)?.[1];
    if (fence !== '' || marker !== undefined) {
      if (fence === '') fence = marker!;
      else if (marker === fence) fence = '';
      b.add(start, end, ''); // code blocks are shown, not spoken
    } else if (TABLE_RULE.test(line) || HORIZONTAL_RULE.test(line)) {
      b.add(start, end, '');
    } else {
      const spokenBefore = b.length;
      speakLine(rules, b, text, start, end);
      if (newline >= 0) lineEnded(b, spokenBefore);
    }
    if (newline < 0) break;
    b.add(newline, newline + 1, b.length === 0 || b.last === '\n' ? '' : '\n');
    start = newline + 1;
  }
  return b.finish();
}

/** Drops a line's block markers (quote, heading, bullet, table pipes) and speaks the rest. */
function speakLine(rules: RuleSet, b: SpeechBuilder, text: string, start: number, end: number): void {
  let at = start;
  const skip = (re: RegExp): void => {
    const m = re.exec(text.slice(at, end));
    if (m) {
      b.add(at, at + m[0].length, '');
      at += m[0].length;
    }
  };
  skip(QUOTE);
  const heading = HEADING.exec(text.slice(at, end)) !== null;
  skip(HEADING);
  skip(BULLET);
  let stop = end;
  if (heading) stop = at + text.slice(at, end).replace(CLOSING_HASHES, '').length;
  if (TABLE_ROW.test(text.slice(at, stop))) {
    speakTableRow(rules, b, text, at, stop);
  } else {
    speakInline(rules, b, text, at, stop);
  }
  if (stop < end) b.add(stop, end, '');
}

/** "| a | b |" -> "a, b": cells are spoken in turn, pipes become commas. */
function speakTableRow(rules: RuleSet, b: SpeechBuilder, text: string, start: number, end: number): void {
  const pipes: number[] = [];
  for (let i = start; i < end; i++) if (text[i] === '|' && text[i - 1] !== '\\') pipes.push(i);
  let at = start;
  pipes.forEach((p, k) => {
    if (p > at) speakInline(rules, b, text, at, p);
    const outer =
      (k === 0 && text.slice(start, p).trim() === '') ||
      (k === pipes.length - 1 && text.slice(p + 1, end).trim() === '');
    b.add(p, p + 1, outer ? ' ' : ', ');
    at = p + 1;
  });
  if (at < end) speakInline(rules, b, text, at, end);
}

/** A line followed by another and ending without punctuation gets a full stop, so lines are not run together. */
function lineEnded(b: SpeechBuilder, spokenBefore: number): void {
  if (b.trimmedLength <= spokenBefore) return;
  b.trimEnd();
  if (!/[.!?,;:]/.test(b.last)) b.add(b.sourceEnd, b.sourceEnd, '.');
}
