// The languages the normaliser has rules for; a language is added with its own folder of rules
// (en/ is the model) and an entry here.
import { ENGLISH_RULES } from './en/index.ts';
import { compileRules, type RuleSet } from './rules.ts';

export const LANGUAGES = ['en'] as const;
export type Language = (typeof LANGUAGES)[number];

const COMPILED: Record<Language, RuleSet> = {
  en: compileRules(ENGLISH_RULES),
};

export function rulesFor(language: Language): RuleSet {
  const set = (COMPILED as Record<string, RuleSet | undefined>)[language];
  if (set === undefined) {
    throw new RangeError(
      `normalizeForSpeech: no rules for language ${JSON.stringify(language)} (have: ${LANGUAGES.join(', ')})`,
    );
  }
  return set;
}
