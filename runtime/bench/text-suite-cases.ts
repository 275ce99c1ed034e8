// Loads the public suites under bench/text-suites/ (sources and licences: README.md there) and
// scores a normalisation by the phonemes espeak-ng gives it (method: docs/benchmarks/text-front-end.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SUITES = join(import.meta.dirname, 'text-suites');

/** One text-normalisation case: a written input and the spoken forms a person would accept. */
export interface TnCase {
  semioticClass: string;
  input: string;
  references: string[];
}

/** NeMo cases its own file marks as wrong ("(incorrect normalization) ...") are not used. */
const KNOWN_WRONG = /\(incorrect normalization\)/;

/**
 * NeMo's English text-normalisation cases, one class per file: `input~spoken[~spoken...]` lines,
 * and the multi-reference file (`~input` then one accepted spoken form a line) as class "mixed".
 */
export function loadNemoCases(): TnCase[] {
  const dir = join(SUITES, 'nemo-en');
  const cases: TnCase[] = [];
  for (const file of readdirSync(dir).sort()) {
    const semioticClass = /^test_cases_(.+)\.txt$/.exec(file)?.[1];
    if (semioticClass === undefined) continue;
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    if (semioticClass === 'normalize_with_audio') {
      let current: TnCase | undefined;
      for (const line of lines) {
        if (line.startsWith('~')) {
          current = { semioticClass: 'mixed', input: line.trim().replace(/~/g, ''), references: [] };
          cases.push(current);
        } else if (current && line.trim() !== '') current.references.push(line.trim());
      }
      continue;
    }
    for (const line of lines) {
      const [input = '', ...references] = line.split('~');
      if (input.trim() === '' || references.length === 0 || KNOWN_WRONG.test(input)) continue;
      cases.push({ semioticClass, input, references });
    }
  }
  return cases.filter((c) => c.input.trim() !== '' && c.references.length > 0);
}

/** One sentence-boundary case: a text and the sentences it holds. */
export interface SbdCase {
  rule: number;
  name: string;
  text: string;
  sentences: string[];
}

/** pySBD's golden-rule files per language (runtime/bench/text-suites/README.md; pySBD has no Portuguese set). */
export const GOLDEN_RULE_FILES = {
  en: 'english',
  es: 'spanish',
  fr: 'french',
  hi: 'hindi',
  it: 'italian',
  ja: 'japanese',
  zh: 'chinese',
} as const;

export function loadGoldenRules(language: keyof typeof GOLDEN_RULE_FILES = 'en'): SbdCase[] {
  const file = `${GOLDEN_RULE_FILES[language]}-golden-rules.json`;
  return JSON.parse(readFileSync(join(SUITES, 'pysbd', file), 'utf8')) as SbdCase[];
}

const NUMBER_OR_CURRENCY =
  'hundred|thousand|million|billion|trillion|dollars?|pounds?|euros?|yen|won|yuan|rupees?|cents?|pence|penny';

/**
 * Spoken forms a person would also accept for a reference: "one hundred and five" and "one
 * hundred five", "twenty dollars fifty cents" and "... and fifty cents", and capitals read as
 * letters ("PM" is written for "P.M.": espeak-ng reads "AM" as the word "am").
 */
export function referenceVariants(reference: string): string[] {
  const out = new Set([reference]);
  const withoutAnd = (r: string): string => r.replace(new RegExp(`\\b(${NUMBER_OR_CURRENCY})\\s+and\\s+`, 'gi'), '$1 ');
  const withAnd = (r: string): string =>
    r.replace(/\b(dollars?|pounds?|euros?|yen|rupees?)\s+(?!and\b)(?=[a-z ]+?\s(?:cents?|pence|penny)\b)/gi, '$1 and ');
  for (const r of [withoutAnd(reference), withAnd(reference), withAnd(withoutAnd(reference))]) out.add(r);
  // dotted, because espeak-ng reads a lone "A" as the article
  for (const r of [...out]) out.add(r.replace(/\b[A-Z]{2,5}\b/g, (w) => `${w.split('').join('.')}.`));
  return [...out];
}

/**
 * Phonemes compared for "read the same": stress and length marks, punctuation and word breaks
 * dropped (they change prosody, not which words are said), and espeak-ng's two spellings of a
 * reduced vowel made one.
 */
export function canonicalPhonemes(phonemes: string): string {
  // espeak-ng writes the same unstressed vowels two ways depending on the context ("eleven")
  return phonemes
    .replace(/[ˈˌː\s.,!?;:—…"«»“”()\-'/]/g, '')
    .replace(/ᵻ/g, 'ɪ')
    .replace(/ɐ/g, 'ə')
    .replace(/oɹ/g, 'ɔɹ'); // "forty" from the word, "40" from digits
}

/** Levenshtein distance over code points, for the phoneme error rate. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[y.length]!;
}
