// English inline rules, in the order they are tried at each position of the text (the first rule
// that matches there wins, and its spoken form is final: nothing is expanded twice). Reasons for
// the order, and what is left to kokoro-js and espeak-ng: docs/design/text-normalisation.md.
import type { Rule } from '../rules.ts';
import { ABBREVIATION_RULES } from './abbreviation.ts';
import { ADDRESS_RULES } from './address.ts';
import { CARDINAL_RULES } from './cardinal.ts';
import { DATE_RULES } from './date.ts';
import { ELECTRONIC } from './electronic.ts';
import { FRACTION_RULES } from './fraction.ts';
import { MARKUP_LEFTOVERS, MARKUP_SPANS, TYPOGRAPHY } from './markup.ts';
import { MATH_RULES } from './math.ts';
import { MEASURE_RULES } from './measure.ts';
import { MONEY_RULES } from './money.ts';
import { ORDINAL_RULES } from './ordinal.ts';
import { AMOUNT_RANGES, NUMBER_RANGES } from './range.ts';
import { ROMAN_RULES } from './roman.ts';
import { SERIAL_RULES } from './serial.ts';
import { TELEPHONE } from './telephone.ts';
import { TIME_RULES } from './time.ts';

export const ENGLISH_RULES: readonly Rule[] = [
  ...MARKUP_SPANS, // code, links, images, tags: their text is normalised in turn
  ...TYPOGRAPHY, // curly quotes, odd spaces: one character each, before anything reads quotes
  ...ELECTRONIC, // addresses hold digits, dots and dashes that every later class would take
  ...TELEPHONE, // "123-123-5678" before ranges, "(555) 010-4477" before math
  ...ADDRESS_RULES, // "1428 Elm St.": the house number before the cardinal rules
  ...DATE_RULES, // "2016-11-03", "11/17/05" before ranges and fractions; "1980s" before units ("s")
  ...AMOUNT_RANGES, // money, time and measure ranges, before single amounts
  ...MONEY_RULES,
  ...TIME_RULES,
  ...MATH_RULES, // "1-2=5" before the number range; "2*8" before the emphasis markers
  ...MEASURE_RULES,
  ...FRACTION_RULES, // after dates ("3/4/1998") and units ("km/h")
  ...ORDINAL_RULES, // "1000th" before serials take "th" for letters
  ...ROMAN_RULES,
  ...SERIAL_RULES, // any other mix of letters and digits, dashes included ("1-413-te-b")
  ...NUMBER_RANGES, // "2020-2024", "1960s-80s": after serials, which hold dashes too
  ...CARDINAL_RULES,
  ...ABBREVIATION_RULES,
  ...MARKUP_LEFTOVERS, // emphasis markers, emoji, symbols: last, any class may own a symbol
];
