// Benchmark: the text front end's cost against input length, per path. Each path runs at 1 KB and
// at 64 KB; the figure is µs per input character, and the ratio (64 KB's over 1 KB's) stays near 1
// when the cost is linear (a quadratic path shows ~64). Prints a markdown table.
// Run: npm run -w runtime bench:text-cost   (KOKORO_COST_SIZES="1024,65536" to change the sizes)
import { ShownTextStream } from '../src/text/inline-display.ts';
import { normalizeForSpeech, type Language } from '../src/text/normalize.ts';
import { SentenceSegmenter } from '../src/text/segmenter.ts';

const sizes = (process.env.KOKORO_COST_SIZES ?? '1024,65536').split(',').map(Number);

/** Text of exactly `n` characters made by repeating `unit`. */
const fill = (unit: string, n: number): string => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

const PROSE = 'Dr. Smith paid $1,299.99 on Nov. 30 at 10:30 a.m., see example.com or mail jane@example.com. ';
const HINDI = 'श्रीमती शर्मा ने 12:30 बजे ₹50 का भुगतान किया। ';

interface Path {
  name: string;
  unit: string;
  language?: Language;
  stage: 'segmenter' | 'normaliser' | 'shown';
}

const PATHS: Path[] = [
  { stage: 'segmenter', name: 'English prose', unit: PROSE },
  { stage: 'segmenter', name: 'full stops "."', unit: '.' },
  { stage: 'segmenter', name: 'dandas "।" (hi)', unit: '।', language: 'hi' },
  { stage: 'segmenter', name: '"。" (ja)', unit: '。', language: 'ja' },
  { stage: 'segmenter', name: 'no spaces "x"', unit: 'x' },
  { stage: 'segmenter', name: 'no spaces, kana (ja)', unit: 'あ', language: 'ja' },
  { stage: 'segmenter', name: '"a." runs', unit: 'a.' },
  { stage: 'segmenter', name: '". " runs', unit: '. ' },
  { stage: 'segmenter', name: '"[" runs', unit: '[' },
  { stage: 'segmenter', name: '"1. " list markers', unit: '1. ' },
  { stage: 'segmenter', name: 'code fence body', unit: '```\n' + 'x'.repeat(70) + '\n' },
  { stage: 'segmenter', name: 'Hindi prose', unit: HINDI, language: 'hi' },
  { stage: 'normaliser', name: 'English prose', unit: PROSE },
  { stage: 'normaliser', name: 'Hindi prose', unit: HINDI, language: 'hi' },
  {
    stage: 'normaliser',
    name: 'Spanish prose',
    unit: 'La Sra. García pagó 3,50 € el 15/03/2025 a las 12:30. ',
    language: 'es',
  },
  { stage: 'normaliser', name: 'table row', unit: '| cell ' },
  { stage: 'normaliser', name: 'table rule line', unit: '|--' },
  { stage: 'normaliser', name: 'spaces then "x"', unit: ' ' },
  { stage: 'normaliser', name: '"[" runs', unit: '[' },
  { stage: 'normaliser', name: '"[a" runs', unit: '[a' },
  { stage: 'normaliser', name: '"a." runs (e-mail, file, domain)', unit: 'a.' },
  { stage: 'normaliser', name: '"a_" runs', unit: 'a_' },
  { stage: 'normaliser', name: '"a-" runs', unit: 'a-' },
  { stage: 'normaliser', name: '"x" run', unit: 'x' },
  { stage: 'normaliser', name: 'digits', unit: '1' },
  { stage: 'normaliser', name: '"1." runs', unit: '1.' },
  { stage: 'normaliser', name: '"1," runs', unit: '1,' },
  { stage: 'normaliser', name: '"1 " runs', unit: '1 ' },
  { stage: 'normaliser', name: '"`" runs', unit: '`' },
  { stage: 'normaliser', name: '"<a " runs', unit: '<a ' },
  { stage: 'normaliser', name: 'inline pronunciations', unit: '[Kokoro](/kˈOkəɹO/) ' },
  { stage: 'normaliser', name: 'emoji', unit: '🎉' },
  { stage: 'normaliser', name: '"- " lines', unit: '- a\n' },
  { stage: 'shown', name: '"[" runs', unit: '[' },
  { stage: 'shown', name: '"[a](/" runs', unit: '[a](/' },
  { stage: 'shown', name: 'inline pronunciations', unit: '[Kokoro](/kˈOkəɹO/) ' },
];

/** µs per character of one run over `text`: the least of a few (other work and GC only add time). */
function cost(path: Path, text: string): number {
  const language = path.language ?? 'en';
  const deltas = text.match(/[\s\S]{1,4}/gu) ?? []; // LLM-like 4-character deltas
  const once = (): void => {
    if (path.stage === 'segmenter') {
      const s = new SentenceSegmenter({ language });
      for (const d of deltas) s.push(d);
      s.flush();
    } else if (path.stage === 'normaliser') normalizeForSpeech(text, { language });
    else {
      const s = new ShownTextStream();
      for (const d of deltas) s.push(d);
      s.flush();
    }
  };
  const times: number[] = [];
  const rounds = text.length > 10000 ? 7 : 20;
  for (let r = 0; r < rounds + 1; r++) {
    const t = performance.now();
    once();
    if (r >= 1) times.push(performance.now() - t);
  }
  return (Math.min(...times) * 1000) / text.length;
}

console.log(`| stage | path | ${sizes.map((s) => `µs/char at ${s / 1024} KB`).join(' | ')} | ratio |`);
console.log(`|---|---|${sizes.map(() => '---:').join('|')}|---:|`);
let worst = 0;
for (const path of PATHS) {
  const perChar = sizes.map((n) => cost(path, fill(path.unit, n)));
  const ratio = perChar[perChar.length - 1]! / perChar[0]!;
  worst = Math.max(worst, ratio);
  console.log(
    `| ${path.stage} | ${path.name} | ${perChar.map((c) => c.toFixed(3)).join(' | ')} | ${ratio.toFixed(1)} |`,
  );
}
console.log(`\nworst ratio: ${worst.toFixed(1)}`);
