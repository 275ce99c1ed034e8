// SentenceSegmenter's `language` option: pySBD's golden rules per language (public cases nobody
// here wrote: runtime/bench/text-suites/README.md) as regression tests, the marks each language
// adds, and cuts that do not depend on how the text was split, for scripts without spaces too.
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { SentenceSegmenter, type SegmenterOptions } from './segmenter.ts';
import type { SegmenterLanguage } from './segmenter-languages.ts';

const SUITES = new URL('../../bench/text-suites/pysbd/', import.meta.url);
const FILES = { es: 'spanish', fr: 'french', hi: 'hindi', it: 'italian', ja: 'japanese', zh: 'chinese' } as const;
/** Cases the segmenter gets wrong today (docs/benchmarks/segmenter.md says why); every other must pass. */
const KNOWN_WRONG: Record<string, number[]> = {
  es: [30], // "Mt. Kisco": an English abbreviation inside Spanish text
  it: [9], // "psicol. Serenti": a rare abbreviation before a name
};

const BOUNDARIES_ONLY = { earlyFirstPiece: false, minChars: 1, firstMinChars: 1, maxChars: 2000 };

function segment(text: string, options: SegmenterOptions): string[] {
  const s = new SentenceSegmenter(options);
  return [...s.push(text), ...s.flush()];
}

describe.each(Object.entries(FILES))('pySBD golden rules: %s', (language, file) => {
  const cases = JSON.parse(readFileSync(new URL(`${file}-golden-rules.json`, SUITES), 'utf8')) as {
    rule: number;
    text: string;
    sentences: string[];
  }[];
  const passing = cases.filter((c) => !(KNOWN_WRONG[language] ?? []).includes(c.rule));
  test.each(passing.map((c) => [c.rule, c] as const))('rule %i', (_rule, c) => {
    expect(segment(c.text, { ...BOUNDARIES_ONLY, language: language as SegmenterLanguage })).toEqual(c.sentences);
  });
});

describe('marks per language', () => {
  const cut = (text: string, language: SegmenterLanguage) => segment(text, { ...BOUNDARIES_ONLY, language });

  test('Spanish: ¿ ¡ open sentences; Sr., Sra., Dra., Ud. end nothing', () => {
    expect(cut('¿Vino la Sra. García? ¡Sí! La Dra. Pérez y el Sr. Gómez también. ¿Y Ud. qué opina?', 'es')).toEqual([
      '¿Vino la Sra. García?',
      '¡Sí!',
      'La Dra. Pérez y el Sr. Gómez también.',
      '¿Y Ud. qué opina?',
    ]);
  });

  test('French: a space before ! ? ; : and « » quotes', () => {
    expect(cut('Bonjour ! Comment allez-vous ? Il a dit « Merci. Au revoir » ; M. Dupont est parti.', 'fr')).toEqual([
      'Bonjour !',
      'Comment allez-vous ?',
      'Il a dit « Merci. Au revoir » ; M. Dupont est parti.',
    ]);
  });

  test('Italian and Portuguese abbreviations', () => {
    expect(cut("Buongiorno Sig. Rossi. È arrivato il Dott. Bianchi con l'Avv. Verdi.", 'it')).toEqual([
      'Buongiorno Sig. Rossi.',
      "È arrivato il Dott. Bianchi con l'Avv. Verdi.",
    ]);
    expect(cut('Olá Sra. Silva. O Dr. Souza chega às 10h. Obrigado.', 'pt')).toEqual([
      'Olá Sra. Silva.',
      'O Dr. Souza chega às 10h.',
      'Obrigado.',
    ]);
  });

  test('Hindi: the danda and the double danda end sentences', () => {
    expect(cut('मैं ठीक हूँ। आप कैसे हैं? धन्यवाद॥ फिर मिलेंगे।', 'hi')).toEqual(['मैं ठीक हूँ।', 'आप कैसे हैं?', 'धन्यवाद॥', 'फिर मिलेंगे।']);
    // English rules do not know the danda: one piece
    expect(cut('मैं ठीक हूँ। आप कैसे हैं', 'en')).toEqual(['मैं ठीक हूँ। आप कैसे हैं']);
  });

  test('Japanese and Chinese: 。！？ cut with no space; the first piece is cut early at 、 and ，', () => {
    expect(cut('これはペンです。それは何ですか？すごい！', 'ja')).toEqual([
      'これはペンです。',
      'それは何ですか？',
      'すごい！',
    ]);
    const first = (text: string, language: SegmenterLanguage) => segment(text, { language })[0];
    expect(first('今日はとても良い天気ですね、散歩に行きましょう。', 'ja')).toBe('今日はとても良い天気ですね、');
    expect(first('我们明天一起去看电影，好吗？好！', 'zh')).toBe('我们明天一起去看电影，');
    // too few characters before the comma for an early cut
    expect(first('好的，我们走吧。', 'zh')).toBe('好的，我们走吧。');
  });

  test('English text keeps its rules when no language is given', () => {
    expect(segment('Mr. Smith came. Sr. García too.', BOUNDARIES_ONLY)).toEqual([
      'Mr. Smith came.',
      'Sr.',
      'García too.',
    ]);
  });

  test('an unknown language is refused, naming the supported ones', () => {
    expect(() => new SentenceSegmenter({ language: 'de' as SegmenterLanguage })).toThrow(
      /language must be one of en, es, fr, hi, it, pt, ja, zh, got "de"/,
    );
  });
});

describe('cuts do not depend on how the text was split', () => {
  const texts: [SegmenterLanguage, string][] = [
    ['es', '¡Hola Srta. Ledesma! ¿Cómo está hoy? Espero que muy bien, gracias. El Sr. Gómez llega mañana.'],
    ['fr', "Bonjour ! C'est M. Dupont ; il arrive. « Très bien », dit-elle. À bientôt ?"],
    ['hi', 'सच्चाई यह है कि इसे कोई नहीं जानता। हो सकता है यह कोई विद्रोह रहा हो, या फिर कोई आनंदोत्सव।'],
    ['zh', '我们明天一起去看《摔跤吧！爸爸》好吗？好！安永已聯繫周怡安親屬，協助辦理簽證相關事宜。'],
    ['ja', '自民党の幹部は、「引き下げ幅は３．２９％以上」と指摘しています。２％台後半を目指す方向です。'],
  ];
  test.each(texts)('%s', (language, text) => {
    const whole = segment(text, { language });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), text.length];
        const s = new SentenceSegmenter({ language });
        const out: string[] = [];
        for (let k = 1; k < points.length; k++) out.push(...s.push(text.slice(points[k - 1], points[k])));
        expect([...out, ...s.flush()]).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
