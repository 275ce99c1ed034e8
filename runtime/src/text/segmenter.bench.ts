// Benchmark: µs per token for SentenceSegmenter.push on long answers, and µs per piece for normalizeForSpeech.
// Run: npm exec -- node runtime/src/text/segmenter.bench.ts [-- path/of/another/text/index.ts]
// With a path, that version of the text stage is measured too, alternately with this one.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as here from './index.ts';

type TextStage = Pick<typeof here, 'SentenceSegmenter' | 'normalizeForSpeech'>;

const paragraph =
  'Sure, here is a detailed answer to your question about the U.S. economy in 2026. ' +
  'GDP grew by 2.5% last year, e.g. in services, while prices rose to $1,299.99 for a typical laptop (see Fig. 3). ' +
  'Dr. Smith, an economist at example.com, said: "Growth will continue." Then she added... well, nothing more! ' +
  'Here are the main points:\n- **Services** grew fastest.\n- Manufacturing was flat.\n1. Rates fell at 10:30 a.m. on Nov. 30.\n\n';

/** The same kind of paragraph in the other languages (written for this benchmark). */
const PARAGRAPHS: Partial<Record<here.SegmenterLanguage, string>> = {
  es:
    '¡Claro! La Sra. García pagó 3,50 € el 15/03/2025 a las 12:30, p. ej. en la tienda de la Av. Colón. ' +
    '¿Quiere que le envíe el recibo? El Dr. Pérez dijo: «Todo está en orden». Luego añadió... nada más.\n\n',
  fr:
    "Bien sûr ! M. Dupont a payé 3,50 € le 15/03/2025 à 12h30, p. ex. au magasin de l'av. Foch. " +
    'Voulez-vous le reçu ? Le Dr Martin a dit : « Tout est en ordre ». Puis il a ajouté… rien de plus.\n\n',
  hi: 'ज़रूर! श्रीमती शर्मा ने 12:30 बजे ₹50 का भुगतान किया। क्या आप रसीद चाहते हैं? डॉ. वर्मा ने कहा कि सब ठीक है।\n\n',
  ja: 'もちろんです。田中様は１２時３０分に３５０円をお支払いになりました、ありがとうございます。領収書をお送りしましょうか？\n\n',
};

function measure(
  stage: TextStage,
  label: string,
  repeats: number,
  rounds: number,
  language: here.SegmenterLanguage = 'en',
): void {
  const answer = (language === 'en' ? paragraph : PARAGRAPHS[language]!).repeat(repeats);
  // LLM-like deltas: up to 5 characters with their leading whitespace (~4 characters per token).
  const tokens = answer.match(/\s*\S{1,5}|\s+$/g) ?? [];
  if (tokens.join('') !== answer) throw new Error('bench tokenisation lost text');
  const run = (): string[] => {
    const s = new stage.SentenceSegmenter(language === 'en' ? {} : { language });
    const pieces = tokens.flatMap((t) => s.push(t));
    return [...pieces, ...s.flush()];
  };
  for (let w = 0; w < 50; w++) run(); // warm-up (JIT)
  let pieces: string[] = [];
  const t0 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) pieces = run();
  const ns = Number(process.hrtime.bigint() - t0);
  console.log(
    `${label}segmenter: ${answer.length} chars, ${tokens.length} tokens, ${pieces.length} pieces: ` +
      `${(ns / 1000 / (rounds * tokens.length)).toFixed(3)} µs per token (${(ns / 1e6 / rounds).toFixed(2)} ms per answer)`,
  );
  if (repeats > 10) return;
  const options = language === 'en' ? {} : { language };
  for (let w = 0; w < 20; w++) pieces.forEach((p) => stage.normalizeForSpeech(p, options));
  const t1 = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) pieces.forEach((p) => stage.normalizeForSpeech(p, options));
  const ns1 = Number(process.hrtime.bigint() - t1);
  console.log(
    `${label}normalizeForSpeech: ${(ns1 / 1000 / (rounds * pieces.length)).toFixed(2)} µs per piece ` +
      `(mean ${Math.round(answer.length / pieces.length)} chars)`,
  );
}

const otherPath = process.argv[2];
const other =
  otherPath === undefined ? undefined : ((await import(pathToFileURL(resolve(otherPath)).href)) as TextStage);
for (const [repeats, rounds] of [
  [4, 500], // a long answer (~1.7 kB)
  [40, 100], // ~17 kB: the per-token cost must not grow with the answer
  [400, 10], // ~170 kB
] as const) {
  measure(here, other ? 'this: ' : '', repeats, rounds);
  if (other) measure(other, 'other: ', repeats, rounds);
}

// Other languages: their rules (segmenter-languages.ts, normalize/<lang>/), this version only.
for (const language of Object.keys(PARAGRAPHS) as here.SegmenterLanguage[])
  measure(here, `${language}: `, 10, 200, language);
