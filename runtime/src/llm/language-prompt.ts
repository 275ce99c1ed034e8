// Tells the model which language to answer in: a sentence added to the system prompt for every
// language but English (the configured prompt is written in English; an English session's prompt
// is left exactly as configured). docs/design/languages.md, "The agent in a language".
import { LANGUAGE_NAMES, type SpokenLanguage } from '@kokoro-speech/protocol';

/** The language's own name, so that the instruction also reads right to a model that follows the user. */
const ENDONYMS: Readonly<Record<SpokenLanguage, string>> = {
  en: 'English',
  es: 'español',
  fr: 'français',
  hi: 'हिन्दी',
  it: 'italiano',
  pt: 'português do Brasil',
};

/** The instruction for `language`, or '' for English. */
export function languageInstruction(language: SpokenLanguage): string {
  if (language === 'en') return '';
  return (
    `Always answer in ${LANGUAGE_NAMES[language]} (${ENDONYMS[language]}), whatever language the user writes in: ` +
    `your answer is spoken by a ${LANGUAGE_NAMES[language]} voice. Write numbers, dates and times as ` +
    `${LANGUAGE_NAMES[language]} speakers write them.`
  );
}

/** The system prompt for a turn in `language`: the configured one, then the instruction. */
export function systemPromptFor(base: string | undefined, language: SpokenLanguage): string | undefined {
  const instruction = languageInstruction(language);
  if (instruction === '') return base;
  return base ? `${base}\n\n${instruction}` : instruction;
}
