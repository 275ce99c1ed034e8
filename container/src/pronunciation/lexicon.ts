// A deployment's lexicon: words and phrases with their Kokoro phonemes or a respelling, matched
// case-insensitively unless an entry asks for exact case, only at word boundaries, the longest
// phrase winning. Validated once at start (a symbol outside Kokoro's vocabulary, a duplicate, a
// malformed entry: refused, named); the format is in container/README.md ("Pronunciation").
import { z } from 'zod';
import { KokoroError } from '@kokoro-speech/protocol/errors';
import { unknownSymbol } from './pronunciation-error.ts';

/** A lexicon that cannot be used: the server refuses to start (main.ts prints it and exits 2). */
export class LexiconError extends KokoroError<'config'> {
  constructor(message: string) {
    super('config', message);
  }
}

const entrySchema = z
  .object({
    word: z.string().trim().min(1, { error: 'must not be empty' }),
    phonemes: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
    say: z.string().trim().min(1, { error: 'must not be empty' }).optional(),
    case: z.enum(['any', 'exact']).optional(),
  })
  .strict()
  .refine((e) => (e.phonemes === undefined) !== (e.say === undefined), {
    error: 'give exactly one of "phonemes" and "say"',
  });
const fileSchema = z.object({ entries: z.array(z.unknown()) }).strict();

export type LexiconEntry = z.infer<typeof entrySchema>;

/** A matched entry: the text [start, end) and how to say it. */
export interface LexiconMatch {
  start: number;
  end: number;
  phonemes?: string;
  say?: string;
}

const describe = (i: number, word?: unknown) => `entry ${i + 1}${typeof word === 'string' ? ` ("${word}")` : ''}`;
const spaced = (word: string) => word.trim().split(/\s+/).join(' ');
const keyOf = (e: LexiconEntry) => (e.case === 'exact' ? spaced(e.word) : spaced(e.word).toLowerCase());

/** The entries of a lexicon file's text (JSON), each checked; `name` is where it came from. */
export function parseLexicon(text: string, name: string): LexiconEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LexiconError(`lexicon ${name} is not valid JSON: ${(error as Error).message}`);
  }
  const file = fileSchema.safeParse(json);
  if (!file.success) {
    throw new LexiconError(
      `lexicon ${name} must be a JSON object {"entries": [...]}: ${file.error.issues[0]!.message}`,
    );
  }
  const seen = new Map<string, number>();
  return file.data.entries.map((raw, i) => {
    const word = (raw as { word?: unknown } | null)?.word;
    const parsed = entrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length > 0 ? `"${issue.path.join('.')}" ` : '';
      throw new LexiconError(`lexicon ${name}, ${describe(i, word)}: ${field}${issue.message}`);
    }
    const key = `${parsed.data.case ?? 'any'}:${keyOf(parsed.data)}`;
    const before = seen.get(key);
    if (before !== undefined) {
      const raws = file.data.entries as { word: string }[];
      throw new LexiconError(
        `lexicon ${name}: ${describe(before, raws[before]!.word)} and ${describe(i, word)} are the same ` +
          `${parsed.data.case === 'exact' ? 'word (exact case)' : 'word (case-insensitive)'}; keep one`,
      );
    }
    seen.set(key, i);
    return parsed.data;
  });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const BEFORE = '(?<![\\p{L}\\p{N}_])';
const AFTER = '(?![\\p{L}\\p{N}_])';

const sortedWords = (entries: readonly LexiconEntry[]) =>
  [...new Set(entries.map((e) => spaced(e.word)))].sort((a, b) => b.length - a.length);
const pattern = (word: string) => word.split(' ').map(escape).join('\\s+');

function matcher(entries: readonly LexiconEntry[], flags: string): RegExp | null {
  if (entries.length === 0) return null;
  // Longest first: an alternation takes the first alternative that matches at a position.
  return new RegExp(`${BEFORE}(?:${sortedWords(entries).map(pattern).join('|')})${AFTER}`, flags);
}
export class Lexicon {
  readonly size: number;
  readonly #exact: Map<string, LexiconEntry>;
  readonly #any: Map<string, LexiconEntry>;
  readonly #exactRe: RegExp | null;
  readonly #anyRe: RegExp | null;
  #stickyExact: Map<string, { word: string; re: RegExp }[]> | undefined;
  #stickyAny: Map<string, { word: string; re: RegExp }[]> | undefined;

  /**
   * Checks every entry's phonemes against Kokoro's vocabulary (`symbols`; an engine that does not
   * say what they are gets no check); `name` is for messages.
   */
  constructor(entries: readonly LexiconEntry[], symbols: ReadonlySet<string> | undefined, name = 'KOKORO_LEXICON') {
    entries.forEach((e, i) => {
      const bad = e.phonemes === undefined || !symbols ? undefined : unknownSymbol(e.phonemes, symbols);
      if (bad) {
        throw new LexiconError(
          `lexicon ${name}, ${describe(i, e.word)}: the phoneme ${bad} in "${e.phonemes}" is not in Kokoro's vocabulary`,
        );
      }
    });
    this.size = entries.length;
    const exact = entries.filter((e) => e.case === 'exact');
    const any = entries.filter((e) => e.case !== 'exact');
    this.#exact = new Map(exact.map((e) => [keyOf(e), e]));
    this.#any = new Map(any.map((e) => [keyOf(e), e]));
    this.#exactRe = matcher(exact, 'gu');
    this.#anyRe = matcher(any, 'giu');
  }

  /**
   * Matches in `text`, leftmost first, the longest at each place (an exact-case entry before a
   * case-insensitive one), each one `allowed` (a match that is not gives way to a shorter one there).
   */
  matches(text: string, allowed: (start: number, end: number) => boolean = () => true): LexiconMatch[] {
    const found: (LexiconMatch & { exact: boolean })[] = [];
    for (const exact of [true, false]) {
      const re = exact ? this.#exactRe : this.#anyRe;
      if (!re) continue;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        let hit = this.#hit(m.index, m[0], exact);
        if (hit && !allowed(hit.start, hit.end)) hit = this.#shorter(text, m.index, m[0].length, exact, allowed);
        if (hit) found.push(hit);
        re.lastIndex = m.index + 1; // every place a phrase starts is a candidate; the pass below picks
      }
    }
    found.sort((a, b) => a.start - b.start || b.end - a.end || Number(b.exact) - Number(a.exact));
    const out: LexiconMatch[] = [];
    let reached = 0;
    for (const { exact: _, ...m } of found) {
      if (m.start < reached) continue;
      out.push(m);
      reached = m.end;
    }
    return out;
  }

  #hit(start: number, matched: string, exact: boolean): (LexiconMatch & { exact: boolean }) | undefined {
    const entry = (exact ? this.#exact : this.#any).get(exact ? spaced(matched) : spaced(matched).toLowerCase());
    if (!entry) return undefined;
    const how = entry.phonemes !== undefined ? { phonemes: entry.phonemes } : { say: entry.say! };
    return { start, end: start + matched.length, exact, ...how };
  }

  /** The longest allowed entry shorter than `length` at `start` (rare: only after a refused match). */
  #shorter(
    text: string,
    start: number,
    length: number,
    exact: boolean,
    allowed: (start: number, end: number) => boolean,
  ): (LexiconMatch & { exact: boolean }) | undefined {
    for (const { word, re } of this.#sticky(exact).get(text[start]!.toLowerCase()) ?? []) {
      if (word.length >= length) continue;
      re.lastIndex = start;
      const m = re.exec(text);
      if (!m || m[0].length >= length) continue;
      const hit = this.#hit(start, m[0], exact);
      if (hit && allowed(hit.start, hit.end)) return hit;
    }
    return undefined;
  }

  /** One sticky pattern per word, longest first, by the word's first letter (lower case); made on first use. */
  #sticky(exact: boolean): Map<string, { word: string; re: RegExp }[]> {
    const cached = exact ? this.#stickyExact : this.#stickyAny;
    if (cached) return cached;
    const made = new Map<string, { word: string; re: RegExp }[]>();
    for (const word of sortedWords([...(exact ? this.#exact : this.#any).values()])) {
      const re = new RegExp(`${BEFORE}(?:${pattern(word)})${AFTER}`, exact ? 'yu' : 'yiu');
      const key = word[0]!.toLowerCase();
      const list = made.get(key);
      if (list) list.push({ word, re });
      else made.set(key, [{ word, re }]);
    }
    if (exact) this.#stickyExact = made;
    else this.#stickyAny = made;
    return made;
  }
}
