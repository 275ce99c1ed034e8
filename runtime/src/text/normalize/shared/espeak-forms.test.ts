// The espeak languages' rules: only the forms espeak-ng misreads are rewritten (that it reads the
// rest right, and our outputs too, is tested through the real espeak-ng in
// container/src/engine/espeak-reads.test.ts); English rules never run on them; the map back to
// the source stays exact.
import { describe, expect, test } from '@jest/globals';
import { normalizeForSpeech, sourceRange, type Language } from '../../normalize.ts';

const spoken = (text: string, language: Language): string => normalizeForSpeech(text, { language }).spoken;

const CASES: Record<string, [string, string][]> = {
  es: [
    ['Cuesta 3,50 € o $3.50.', 'Cuesta 3 euros con 50 o 3 dólares con 50.'],
    ['El 15/03/2025 a las 12:30.', 'El 15 de marzo de 2025 a las 12 y 30.'],
    ['Son las 9:00 y hay 1.500 personas.', 'Son las 9 y hay 1500 personas.'],
    ['A 5 km, a 3,5 km/h, 1 m.', 'A 5 kilómetros, a 3 coma 5 kilómetros por hora, 1 metro.'],
    ['Tengo 23 años y el 50% es mío.', 'Tengo 23 años y el 50% es mío.'], // espeak-ng reads these
    ['Pesa 2 kg y 500 g.', 'Pesa 2 kilogramos y 500 gramos.'], // espeak-ng says "dos kilogramo", "quinientos ge"
    ['Es el 1.º y la 2.ª; el 1º también.', 'Es el 1º y la 2ª; el 1º también.'],
  ],
  fr: [
    ['Il a payé 3,50 € à 12h30.', 'Il a payé 3 euros 50 à 12 heures 30.'],
    ['Le 15/03/2025 à 9:00.', 'Le 15 mars 2025 à 9 heures.'],
    ['Soit 1 500 personnes, 5 km et 3,5 %.', 'Soit 1 500 personnes, 5 km et 3 virgule 5 %.'],
  ],
  it: [
    ['Costa 3,50 € alle 12:30.', 'Costa 3 euro e 50 alle 12 e 30.'],
    ['Il 15/03/2025, 1.500 persone, 5 km e 2 kg.', 'Il 15 marzo 2025, 1500 persone, 5 chilometri e 2 chili.'],
  ],
  pt: [
    ['Custa R$ 3,50 às 12:30.', 'Custa 3 reais e 50 centavos às 12 e 30.'],
    ['Em 15/03/2025, 1.500 pessoas, 5 km.', 'Em 15 de março de 2025, 1500 pessoas, 5 quilômetros.'],
  ],
  hi: [
    ['इसकी कीमत ₹50 है।', 'इसकी कीमत 50 रुपये है।'],
    ['12:30 बजे, 5 km दूर।', '12 बजकर 30 मिनट, 5 किलोमीटर दूर।'],
  ],
  ja: [['**これは**ペンです。', 'これはペンです。']],
  zh: [['[链接](https://example.com)很好。', '链接很好。']],
};

describe.each(Object.entries(CASES))('%s', (language, cases) => {
  test.each(cases)('%j', (input, expected) => {
    expect(spoken(input, language as Language)).toBe(expected);
  });
});

test('English-only rules do not run on other languages', () => {
  // English would say "3 dollars and 50 cents", "a m", "Doctor"
  const text = 'El Dr. pagó $3.50 a las 10:30 am en 2/3 del 1st.';
  const es = spoken(text, 'es');
  expect(es).not.toMatch(/dollars|cents|Doctor|thirds?|first|oh/);
  expect(es).toBe('El Dr. pagó 3 dólares con 50 a las 10 y 30 am en 2 de marzo del 1st.');
  expect(spoken('It costs $3.50.', 'en')).toBe('It costs 3 dollars and 50 cents.');
});

test('the source map points each spoken range back to its written form', () => {
  const source = 'Cuesta 3,50 € hoy, a las 12:30.';
  const n = normalizeForSpeech(source, { language: 'es' });
  const at = (word: string) => {
    const s = n.spoken.indexOf(word);
    const r = sourceRange(source, n, s, s + word.length);
    return source.slice(r.start, r.end);
  };
  expect(at('3 euros con 50')).toBe('3,50 €');
  expect(at('12 y 30')).toBe('12:30');
  expect(at('hoy')).toBe('hoy');
});

test('an unknown language is refused, naming those there are', () => {
  expect(() => normalizeForSpeech('hola', { language: 'de' as Language })).toThrow(
    /no rules for language "de" \(have: en, es, fr, hi, it, pt, ja, zh\)/,
  );
});
