import { describe, expect, test } from '@jest/globals';
import { tieForm } from './espeak-wasm.ts';
import { afterPhonemizer, beforePhonemizer, E2M, misakiEspeak } from './misaki-espeak.ts';
import { phonemizeLine, postprocessLine, preservePunctuation, restorePunctuation } from './phonemizer-line.ts';
import { checkVocabulary } from './vocabulary.ts';

describe("espeak-ng's tie form from its separator form", () => {
  // Pairs printed by Debian's espeak-ng 1.51: `--ipa --sep=_` and `--ipa --tie=^` on the same text.
  test.each([
    ['m_ˈu_tʃ_o ɣ_ˈu_s_t_o', 'mˈut^ʃo ɣˈusto'],
    ['x_ˈe s_w_ˈi_s t_ɾ_ˈe_s eʊ_ɾ_ˈeʊ_k_s', 'xˈe swˈis tɾˈes e^ʊɾˈe^ʊks'],
    ['p_ˈi_tsː_a', 'pˈit^sːa'],
    ['(hi)_n_ə_m_ˈʌ_s_t_eː d_ˈʊ_n_ɪ_j_ˌaː_(es)', '(^h^i)nəmˈʌsteː dˈʊnɪjˌaː(^e^s)'],
    ['b_w_ˈe_n_o_s ð_ˈi__a_s', 'bwˈenos ðˈias'],
    ['s_i__ˈaʊ', 'siˈa^ʊ'],
    ['ʒ_ə- s_y_ˌi', 'ʒə- syˌi'],
  ])('%s', (separated, tied) => {
    expect(tieForm(separated)).toBe(tied);
  });
});

describe("phonemizer's punctuation (preserve, then restore around the phonemes)", () => {
  test('marks with their spaces are cut out; empty pieces dropped; positions B, I, E', () => {
    expect(preservePunctuation('¿Cómo estás, Ana?')).toEqual({
      pieces: ['Cómo estás', 'Ana'],
      marks: [
        { mark: '¿', position: 'B' },
        { mark: ', ', position: 'I' },
        { mark: '?', position: 'E' },
      ],
    });
    expect(preservePunctuation('sin puntuación')).toEqual({ pieces: ['sin puntuación'], marks: [] });
    expect(preservePunctuation(' ... ')).toEqual({ pieces: [], marks: [{ mark: ' ... ', position: 'A' }] });
  });

  test('restore: marks back with their own spaces, one trailing space', () => {
    expect(restorePunctuation(['kˈomo estˈas ', 'ˈana '], preservePunctuation('¿Cómo estás, Ana?').marks)).toEqual([
      '¿kˈomo estˈas, ˈana? ',
    ]);
    // A line that is all punctuation comes back as it was.
    expect(restorePunctuation([], [{ mark: '!?', position: 'A' }])).toEqual(['!?']);
  });

  test('postprocess: clauses joined, language flags removed, each word followed by a space', () => {
    expect(postprocessLine(['(^e^n)hˈɛlo(^e^s)', 'mˈundo'])).toBe('hˈɛlo mˈundo ');
    expect(postprocessLine([])).toBe('');
  });

  test('a line: each piece between marks goes to espeak-ng alone', () => {
    const seen: string[] = [];
    const out = phonemizeLine('Hola, mundo.', (piece) => {
      seen.push(piece);
      return [piece.toLowerCase()];
    });
    expect(seen).toEqual(['Hola', 'mundo']);
    expect(out).toBe('hola, mundo. ');
  });
});

describe("misaki's rules (EspeakG2P, version None)", () => {
  test('the tied phonemes and their order (Python sorted by key)', () => {
    const keys = E2M.map(([k]) => k);
    expect([...keys].sort()).toEqual(keys);
    expect(afterPhonemizer(' t^ʃˈao d^ʒˈe pˈit^sːa a^ɪ e^ɪ o^ʊ ə^ʊ ɔ^ɪ a^ʊ d^z s^s ')).toBe(
      'ʧˈao ʤˈe pˈiʦːa I A O Q Y W ʣ S',
    );
  });

  test('ties left over and hyphens are deleted; angles become parentheses', () => {
    expect(afterPhonemizer('ʒə- ʈ^ʈ «ˈola»')).toBe('ʒə ʈʈ (ˈola)');
  });

  test('guillemets become curly quotes and parentheses angles before phonemizer', () => {
    expect(beforePhonemizer('«sí» (no)')).toBe('\u201csí\u201d «no»');
    expect(misakiEspeak('«sí» (no)', (piece) => [piece])).toBe('\u201csí\u201d (no)');
  });
});

describe("Kokoro's vocabulary", () => {
  const vocab = new Set([...'abcdeiklmnoprstuˈ ,.!?']);
  test('in the vocabulary, or a mark without sound: passes', () => {
    expect(() => checkVocabulary('¿kˈomo? d\u032aˈi', vocab, 'Spanish', 'x')).not.toThrow();
  });
  test('any other symbol is an error naming it, its code point, the language and the text', () => {
    expect(() => checkVocabulary('ʧɪrˈillɪkojˈɵ', new Set([...'ʧɪrˈilkoj']), 'Italian', 'ё')).toThrow(
      expect.objectContaining({
        code: 'unspeakable_text',
        message: expect.stringMatching(/Italian G2P gave the phoneme "ɵ" \(U\+0275\).*"ё"/),
      }),
    );
  });
});
