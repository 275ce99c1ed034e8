// What pronunciation control costs: reading a request's text into a script on the event loop
// (spokenText: misaki's inline syntax, SSML, a lexicon of 0, 1,000 and 10,000 entries), in µs per
// sentence, and preparing it on a prep worker (stand-in model), a sentence with a fixed span
// (phonemised run by run) against the same sentence without.
//   npm run -w container bench:pronunciation
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureModel } from '../src/fixture/index.ts';
import { kokoroVocab } from '../src/fixture/tokenizer.ts';
import { loadKokoroEngine } from '../src/engine/index.ts';
import { Lexicon, type LexiconEntry } from '../src/pronunciation/lexicon.ts';
import { spokenText } from '../src/pronunciation/spoken.ts';

const symbols = new Set(Object.keys(kokoroVocab()));
const SENTENCE = 'Your order from Kokoro Speech shipped this morning and should arrive on Thursday.';
const INLINE = 'Your order from [Kokoro](/kˈOkəɹO/) Speech shipped this morning and should arrive on Thursday.';
const SSML =
  '<speak>Your order from <phoneme ph="kˈOkəɹO">Kokoro</phoneme> Speech shipped <break time="300ms"/>' +
  'this morning and should arrive on <say-as interpret-as="date" format="md">5/7</say-as>.</speak>';

function lexicon(size: number): Lexicon | undefined {
  if (size === 0) return undefined;
  const entries: LexiconEntry[] = [{ word: 'Kokoro Speech', phonemes: 'kˈOkəɹO spˈiʧ' }];
  for (let i = 1; i < size; i++) entries.push({ word: `Brandname${i}`, say: `brand name ${i}` });
  return new Lexicon(entries, symbols);
}

function perCallUs(run: () => unknown, rounds = 20_000): number {
  for (let i = 0; i < 2000; i++) run();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) run();
  return ((performance.now() - t0) * 1000) / rounds;
}

console.log('spokenText on the event loop, µs per sentence');
for (const size of [0, 1000, 10_000]) {
  const lex = lexicon(size);
  const row = [
    ['plain', () => spokenText(SENTENCE, { symbols, lexicon: lex })],
    ['inline', () => spokenText(INLINE, { symbols, lexicon: lex })],
    ['ssml', () => spokenText(SSML, { ssml: true, symbols, lexicon: lex })],
  ] as const;
  const figures = row.map(([name, run]) => `${name} ${perCallUs(run).toFixed(1)}`);
  console.log(`  lexicon ${String(size).padStart(5)} entries: ${figures.join(', ')}`);
}

const dir = await mkdtemp(join(tmpdir(), 'bench-pron-'));
try {
  await writeFixtureModel(dir);
  const engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
  const plain = spokenText(SENTENCE, { symbols }).script;
  const fixed = spokenText(SENTENCE, { symbols, lexicon: lexicon(1) }).script;
  const time = async (script: typeof plain, rounds = 200) => {
    for (let i = 0; i < 20; i++) await engine.prepare(script, 'af_heart');
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) await engine.prepare(script, 'af_heart');
    return (performance.now() - t0) / rounds;
  };
  const a = await time(plain);
  const b = await time(fixed);
  console.log(
    `prepare on a worker, ms per sentence: plain ${a.toFixed(2)}, with a fixed span ${b.toFixed(2)} (${(b / a).toFixed(2)}x)`,
  );
  await engine.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
