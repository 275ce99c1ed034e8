// What espeak-ng reads right in each espeak language, and what it does not: the split of work with
// the agent's normaliser (runtime/src/text/normalize/<lang>/, docs/design/languages.md). Through
// the real wasm build: a written form "reads right" when its phonemes equal those of the words a
// speaker would say, stress, length and word breaks aside (they change prosody, not the words).
import { describe, expect, test } from '@jest/globals';
import { phonemize } from './g2p.ts';
import type { LanguageCode } from './languages.ts';

const canonical = (p: string): string => p.replace(/[ˈˌː\s.,:-]/g, '');
const read = async (text: string, code: LanguageCode) => canonical(await phonemize(text, code));

/** Written forms the normaliser leaves to espeak-ng: it says the words on the right. */
const LEFT_TO_ESPEAK: [LanguageCode, string, string][] = [
  ['e', '23', 'veintitrés'],
  ['e', '50%', 'cincuenta por ciento'],
  ['e', '1500', 'mil quinientos'],
  ['e', '2ª', 'segunda'],
  ['p', '1º', 'primeiro'],
  ['i', '1º', 'primo'],
  ['f', '23', 'vingt-trois'],
  ['f', '1 500', 'mille cinq cents'],
  ['f', '5 km', 'cinq kilomètres'],
  ['f', '1er', 'premier'],
  ['i', '23', 'ventitré'],
  ['h', '23', 'तेईस'],
];

/** What the normaliser writes for the forms espeak-ng misreads, and the words it must become. */
const OUR_FORMS: [LanguageCode, written: string, ours: string, words: string][] = [
  ['e', '3,50 €', '3 euros con 50', 'tres euros con cincuenta'],
  ['e', '15/03/2025', '15 de marzo de 2025', 'quince de marzo de dos mil veinticinco'],
  ['e', '12:30', '12 y 30', 'doce y treinta'],
  ['e', '3,5', '3 coma 5', 'tres coma cinco'],
  ['e', '5 km', '5 kilómetros', 'cinco kilómetros'],
  ['e', '1.500', '1500', 'mil quinientos'],
  ['e', '500 g', '500 gramos', 'quinientos gramos'],
  ['e', '2.ª', '2ª', 'segunda'],
  ['f', '3,50 €', '3 euros 50', 'trois euros cinquante'],
  ['f', '15/03/2025', '15 mars 2025', 'quinze mars deux mille vingt-cinq'],
  ['f', '12:30', '12 heures 30', 'douze heures trente'],
  ['f', '3,5', '3 virgule 5', 'trois virgule cinq'],
  ['i', '3,50 €', '3 euro e 50', 'tre euro e cinquanta'],
  ['i', '12:30', '12 e 30', 'dodici e trenta'],
  ['h', '₹50', '50 रुपये', 'पचास रुपये'],
  ['h', '12:30', '12 बजकर 30 मिनट', 'बारह बजकर तीस मिनट'],
];

describe('espeak-ng reads these itself', () => {
  test.each(LEFT_TO_ESPEAK)('%s %j', async (code, written, words) => {
    expect(await read(written, code)).toBe(await read(words, code));
  });
});

describe("the normaliser's forms read as the words; the written forms do not", () => {
  test.each(OUR_FORMS)('%s %j', async (code, written, ours, words) => {
    const want = await read(words, code);
    expect(await read(ours, code)).toBe(want);
    expect(await read(written, code)).not.toBe(want);
  });

  test('Portuguese: "R$ 3,50" is read as dollars, "3 reais e 50 centavos" as reais and centavos', async () => {
    expect(await phonemize('R$ 3,50', 'p')).toMatch(/dˈolar/);
    const ours = await phonemize('3 reais e 50 centavos', 'p');
    expect(ours).toMatch(/xeˈIz/);
    expect(ours).toMatch(/sˌAŋtˈavʊs/);
    expect(ours).not.toMatch(/dˈolar/);
  });
});
