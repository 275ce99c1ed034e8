// The text front end's properties, for the property tests (front-end.property.test.ts, bounded
// case counts) and the long fuzz run (runtime/bench/text-fuzz.ts): random LLM-like answers, whole
// and split into random deltas, through the segmenter, the normaliser and the shown text.
// Used by tests and scripts only (fast-check is a devDependency).
import fc from 'fast-check';
import { ShownTextStream, shownText } from './inline-display.ts';
import { LANGUAGES, normalizeForSpeech, sourceRange, type Language } from './normalize.ts';
import { SentenceSegmenter, type Piece } from './segmenter.ts';

/** Words of each language the agent speaks (and ja/zh, which the normaliser reads for markup). */
const WORDS: Record<Language, string[]> = {
  en: ['Meet', 'the', 'U.S.', 'Dr.', 'e.g.', 'approx.', 'I', 'Tue.', 'Vol.', 'No.', 'a.m.', 'word'],
  es: ['Sra.', 'García', 'núm.', 'EE.', 'UU.', '¿Qué', 'tal?', '¡Hola!', 'p.ej.', 'año'],
  fr: ['M.', 'Dupont', 'déjà', 'l’av.', 'Foch', 'ça', 'n°', '« oui »', 'Mme'],
  hi: ['श्रीमती', 'शर्मा', 'डॉ.', 'बजे', 'है।', 'क्या', '॥', 'नमस्ते'],
  it: ['Sig.', 'dell’Avv.', 'Rossi', 'perché', 'ecc.', 'pag.', 'città'],
  pt: ['Sr.', 'João', 'não', 'R$', 'Exmo.', 'pág.', 'ação'],
  ja: ['もちろんです。', '田中様', '３５０円', '、', '！', '領収書', 'ですか？'],
  zh: ['你好。', '北京', '，', '《摔跤吧！爸爸》', '谢谢！', '；'],
};

/** Inline pronunciations, well and badly formed ("[" and "/" inside the phonemes, long words). */
const pronunciation = fc.oneof(
  fc.constant('[Kokoro](/kˈOkəɹO/)'),
  fc.constant('[New York](/nˈu jˈɔɹk/)'),
  fc.constantFrom('[a](/x[y/)', '[a](/b/c/)', '[](/x/)', '[a](/)', '[a](x)', '[a](-1)', '[Kokoro](/kˈO'),
  fc
    .tuple(fc.integer({ min: 1, max: 130 }), fc.integer({ min: 1, max: 230 }))
    .map(([w, p]) => `[${'w'.repeat(w)}](/${'ə'.repeat(p)}/)`),
);

/** Everything but words: markup, classes the normaliser rewrites, and hostile text. */
const OTHER = [
  '- ',
  '* ',
  '+ [x] ',
  '> ',
  '> > ',
  '## ',
  '1. ',
  '2) ',
  'a. ',
  '• ',
  '| ',
  ' | ',
  '|---|:--:|',
  '\n',
  '\n\n',
  '```\n',
  '~~~',
  '`code`',
  '**',
  '_',
  '[link](https://example.com/a "t")',
  '![alt](x.png)',
  '<b>',
  '<break time="1s"/>',
  '<speak>',
  '</speak>',
  '<phoneme alphabet="ipa" ph="kˈOkəɹO">Kokoro</phoneme>',
  '$1,299.99',
  '€3,50',
  '3,50 €',
  '₹50',
  'R$ 3,50',
  '12:30',
  '10:30 a.m.',
  '15/03/2025',
  '2026-12-06',
  'Nov. 30',
  '2.5%',
  '1.500.000',
  '3,5',
  '5 km',
  '1/2',
  '+1 (555) 123-4567',
  'https://www.docs.example.com/a/b?q=1',
  'www.example.org',
  'jane.doe@example.com',
  'package.json',
  '192.168.0.1',
  'XIV',
  '🎉',
  '👨‍👩‍👧',
  '🇫🇷',
  'مرحبا بالعالم.',
  'שלום.',
  '\u200f',
  '\uD800',
  '\uDC00',
  '\uFEFF',
  '\u00A0',
  '...',
  '. . .',
  '…',
  '?!',
  '.',
  ',',
  ';',
  ' - ',
  '—',
  '"',
  '(',
  ')',
  '[',
  ']',
  '[...]',
  '“',
  '”',
];

/** Very long tokens: runs without spaces, of sentence marks, of brackets. */
const longToken = fc
  .tuple(
    fc.constantFrom('x', '.', '।', '。', '[', '|', 'a.', 'a_', '-', '!', '\t', ' '),
    fc.integer({ min: 50, max: 400 }),
  )
  .map(([c, n]) => c.repeat(n));

export interface FrontEndCase {
  language: Language;
  text: string;
  /** Where the text is cut into deltas (sorted offsets). */
  cuts: number[];
}

export function frontEndCase(languages: readonly Language[] = LANGUAGES): fc.Arbitrary<FrontEndCase> {
  return fc.constantFrom(...languages).chain((language) =>
    fc
      .array(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...WORDS[language], ...WORDS.en) },
          { weight: 5, arbitrary: fc.constantFrom(...OTHER) },
          { weight: 2, arbitrary: pronunciation },
          { weight: 1, arbitrary: longToken },
          { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
          { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
        ),
        { maxLength: 60, size: 'max' },
      )
      .chain((parts) =>
        fc
          .array(fc.constantFrom(' ', ' ', ' ', '', '\n'), { minLength: parts.length, maxLength: parts.length })
          .map((seps) => parts.map((p, k) => p + seps[k]).join('')),
      )
      .chain((text) =>
        fc
          .uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 30, size: 'max' })
          .map((cuts) => ({ language, text, cuts: cuts.filter((c) => c < text.length).sort((a, b) => a - b) })),
      ),
  );
}

export function deltasOf(c: FrontEndCase): string[] {
  const at = [0, ...c.cuts, c.text.length];
  return at
    .slice(1)
    .map((end, k) => c.text.slice(at[k], end))
    .filter((d) => d !== '');
}

function segment(language: Language, deltas: readonly string[]): Piece[] {
  const s = new SentenceSegmenter({ language });
  return [...deltas.flatMap((d) => s.pushSpans(d)), ...s.flushSpans()];
}

/** Throws with the invariant broken; returns nothing when the case holds. */
export function checkFrontEnd(c: FrontEndCase): void {
  const { text, language } = c;
  const deltas = deltasOf(c);
  const whole = segment(language, [text]);
  const split = segment(language, deltas);
  // Cuts depend on the text only, never on its deltas.
  if (JSON.stringify(whole) !== JSON.stringify(split)) {
    throw new Error(`pieces differ when split: ${JSON.stringify({ whole, split })}`);
  }
  // No source text lost: pieces are slices in order, the gaps only whitespace.
  let at = 0;
  for (const p of whole) {
    if (text.slice(p.start, p.end) !== p.text || p.start < at || /\S/.test(text.slice(at, p.start)) || p.text === '') {
      throw new Error(`piece ${p.index} is not the text's next slice: ${JSON.stringify(p)} after ${at}`);
    }
    at = p.end;
  }
  if (/\S/.test(text.slice(at))) throw new Error(`text after the last piece lost: ${JSON.stringify(text.slice(at))}`);
  for (const p of whole) checkPiece(p.text, language);
  // The streamed `text` deltas show what the whole text shows.
  const stream = new ShownTextStream();
  const streamed = deltas.map((d) => stream.push(d)).join('') + stream.flush();
  const expected = shownText(text).text;
  if (streamed !== expected)
    throw new Error(`streamed text ${JSON.stringify(streamed)} != ${JSON.stringify(expected)}`);
}

/** One piece through the normaliser: the map tiles it; every word's span lies inside it, in order. */
export function checkPiece(piece: string, language: Language): void {
  const n = normalizeForSpeech(piece, { language });
  let source = 0;
  let spoken = 0;
  for (const s of n.segments) {
    if (
      s.sourceStart !== source ||
      s.sourceEnd < s.sourceStart ||
      s.spokenStart < spoken ||
      s.spokenEnd < s.spokenStart
    ) {
      throw new Error(`segments do not tile: ${JSON.stringify(s)} after source ${source}, spoken ${spoken}`);
    }
    source = s.sourceEnd;
    spoken = s.spokenEnd;
  }
  if (source !== piece.length || spoken !== n.spoken.length) throw new Error('segments do not cover the piece');
  const shown = shownText(piece);
  let last = 0;
  for (const w of n.spoken.matchAll(/[\p{L}\p{N}]+/gu)) {
    const r = sourceRange(piece, n, w.index, w.index + w[0].length);
    const [a, z] = [shown.at(r.start), shown.at(r.end)];
    if (r.start < 0 || r.end > piece.length || r.start > r.end || a < last || z > shown.text.length || a > z) {
      throw new Error(`word ${JSON.stringify(w[0])} maps to ${JSON.stringify(r)} (shown ${a}-${z}, after ${last})`);
    }
    last = a;
  }
}
