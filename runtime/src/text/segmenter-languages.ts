// What SentenceSegmenter reads differently per language: the marks that end a sentence or a
// clause, the abbreviations after which a full stop ends nothing, and scripts written without
// spaces (docs/design/languages.md, "The segmenter"). English keeps its own rules
// (segmenter-rules.ts); the tables below are written from the languages' usage, not copied.
import { CLAUSE_MARKS, TERMINATORS, endsSentence, isLower } from './segmenter-rules.ts';

export const SEGMENTER_LANGUAGES = ['en', 'es', 'fr', 'hi', 'it', 'pt', 'ja', 'zh'] as const;
export type SegmenterLanguage = (typeof SEGMENTER_LANGUAGES)[number];

/** Sentence ends of scripts written without spaces: they cut with no space after them. */
export const CJK_TERMINATORS = new Set(['。', '！', '？']);
/** Their clause marks (the early first piece and long sentences cut there, no space needed). */
export const CJK_CLAUSE_MARKS = new Set(['、', '，', '；', '：']);
/** Devanagari's danda and double danda end a sentence as a full stop does. */
const DANDAS = ['।', '॥'];

export interface LanguageRules {
  language: SegmenterLanguage;
  terminators: ReadonlySet<string>;
  clauseMarks: ReadonlySet<string>;
  /** Written without spaces: sentence and clause marks that cut without a space after them. */
  unspaced: boolean;
  unspacedMarks: ReadonlySet<string>;
  /** Abbreviations (lower case, without their final dot) after which a full stop never ends a sentence. */
  neverEnd: ReadonlySet<string>;
  /** Abbreviations that end nothing when a number follows (months, weekdays, "núm. 5"). */
  beforeNumber: ReadonlySet<string>;
  /** Whether a terminator run ends a sentence (segmenter-rules.ts endsSentence's arguments). */
  endsSentence: typeof endsSentence;
}

const words = (s: string): Set<string> => new Set(s.split(/\s+/).filter(Boolean));

// Titles and lead-ins that a name or phrase follows, per language.
const NEVER_END: Record<Exclude<SegmenterLanguage, 'en'>, string> = {
  es:
    'sr sra srta sres sras dr dra drs lic licda ing arq prof profa ud uds vd vds d dña don sto sta ' +
    'gral cap tte sgto av avda admón atte att aprox ej p.ej vs cía dpto depto',
  fr: 'm mm mme mmes mlle mlles dr pr me mgr st ste vve cf env ex av bd ltd inc cie vs',
  it:
    'sig sigg sig.ra sig.na dott dott.ssa ing avv dir prof prof.ssa arch geom rag on sen mons rev ' +
    'egr gent spett ill c.a ca ecc.mo vs es',
  pt: 'sr sra srs sras srta dr dra drs prof profa eng arq av r exmo exma v.exa sto sta ex aprox vs cia',
  hi: 'डॉ श्री श्रीमती सुश्री प्रो',
  ja: '',
  zh: '',
};

const BEFORE_NUMBER: Record<Exclude<SegmenterLanguage, 'en'>, string> = {
  es:
    'núm nº n no art arts párr párrf pág págs cap vol fig tel ene feb mar abr may jun jul ago sep sept ' +
    'oct nov dic lun mié jue vie sáb dom min mín máx',
  fr: 'n no nº p pp vol chap fig art tél janv févr avr juil sept oct nov déc lun mer jeu ven sam dim',
  it: 'n nr p pag pagg vol cap fig art tel gen feb mar apr mag giu lug ago set ott nov dic lun mer gio ven sab dom',
  pt: 'n nº p pág págs vol cap fig art tel jan fev mar abr mai jun jul ago set out nov dez seg ter qua qui sex sáb',
  hi: '',
  ja: '',
  zh: '',
};

const TABLES = new Map<SegmenterLanguage, LanguageRules>();

export function languageRules(language: SegmenterLanguage): LanguageRules {
  let rules = TABLES.get(language);
  if (rules === undefined) {
    const unspaced = language === 'ja' || language === 'zh';
    const extra = unspaced ? [...CJK_TERMINATORS] : language === 'hi' ? DANDAS : [];
    const other: LanguageRules = {
      language,
      terminators: new Set([...TERMINATORS, ...extra]),
      clauseMarks: new Set([...CLAUSE_MARKS, ...(unspaced ? CJK_CLAUSE_MARKS : [])]),
      unspaced,
      unspacedMarks: unspaced ? new Set([...CJK_TERMINATORS, ...CJK_CLAUSE_MARKS]) : new Set(),
      neverEnd: language === 'en' ? new Set() : words(NEVER_END[language]),
      beforeNumber: language === 'en' ? new Set() : words(BEFORE_NUMBER[language]),
      endsSentence: (run, word, startsLine, next) => endsSentenceIn(other, run, word, startsLine, next),
    };
    rules = language === 'en' ? { ...other, endsSentence } : other;
    TABLES.set(language, rules);
  }
  return rules;
}

/** A character of a script written without spaces (Han, kana): each counts as a word. */
export const isUnspacedLetter = (c: string): boolean => /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u.test(c);

/**
 * endsSentence for a language other than English: the terminator run `run` after `word`, then
 * whitespace and `next`. "!", "?", "।" and "。" always end a sentence; a full stop does unless a
 * lower-case word follows, or it ends an abbreviation of the language, an initial, a list marker
 * or a dotted acronym that a lower-case word or a number follows.
 */
export function endsSentenceIn(
  rules: LanguageRules,
  run: string,
  word: string,
  wordStartsLine: boolean,
  next: string,
): boolean {
  if (isLower(next)) return false; // "Sr. pérez" is rare; "etc. y más" is common
  const ellipsis = run.includes('…') || run.startsWith('..');
  if (ellipsis) return !/\p{N}/u.test(next);
  if (run !== '.') return true; // "!", "?", "?!", "।", "。"
  // "l'Ing.", "dell'Avv.", "d'env.": an elided article or preposition before the abbreviation
  const lower = word.replace(/^\p{L}{1,4}['’](?=\p{L})/u, '').toLowerCase();
  if (rules.neverEnd.has(lower)) return false;
  // Spanish plural abbreviations double their letters: "EE. UU." (Estados Unidos), "FF. AA."
  if (rules.language === 'es' && /^(\p{Lu})\1$/u.test(word)) return false;
  if (rules.beforeNumber.has(lower) && /\p{N}/u.test(next)) return false;
  if (wordStartsLine && /^(?:\d{1,3}|[a-z])$/.test(word)) return false; // list marker "1. ", "a. "
  if (/^\p{Lu}$/u.test(word)) return false; // an initial: "J. Pérez"
  // "Núm. de tel: 351.123.465.4. Envíe": numbers with dots end a sentence as any word does
  return true;
}
