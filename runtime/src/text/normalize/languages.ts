// The languages the normaliser has rules for: English (en/, the full set), the languages espeak-ng
// reads (es, fr, hi, it, pt: shared/espeak-forms.ts with each folder's words) and Japanese and
// Mandarin (markup only: the container refuses them). English-only rules never run on the others.
import { ENGLISH_RULES } from './en/index.ts';
import { SPANISH_RULES } from './es/index.ts';
import { FRENCH_RULES } from './fr/index.ts';
import { HINDI_RULES } from './hi/index.ts';
import { ITALIAN_RULES } from './it/index.ts';
import { PORTUGUESE_RULES } from './pt/index.ts';
import { MARKUP_ONLY_RULES } from './shared/espeak-forms.ts';
import { compileRules, type Rule, type RuleSet } from './rules.ts';

export const LANGUAGES = ['en', 'es', 'fr', 'hi', 'it', 'pt', 'ja', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

const RULES: Record<Language, readonly Rule[]> = {
  en: ENGLISH_RULES,
  es: SPANISH_RULES,
  fr: FRENCH_RULES,
  hi: HINDI_RULES,
  it: ITALIAN_RULES,
  pt: PORTUGUESE_RULES,
  ja: MARKUP_ONLY_RULES,
  zh: MARKUP_ONLY_RULES,
};
const COMPILED = new Map<Language, RuleSet>();

export function rulesFor(language: Language): RuleSet {
  const rules = (RULES as Record<string, readonly Rule[] | undefined>)[language];
  if (rules === undefined) {
    throw new RangeError(
      `normalizeForSpeech: no rules for language ${JSON.stringify(language)} (have: ${LANGUAGES.join(', ')})`,
    );
  }
  let set = COMPILED.get(language);
  if (set === undefined) COMPILED.set(language, (set = compileRules(rules)));
  return set;
}
