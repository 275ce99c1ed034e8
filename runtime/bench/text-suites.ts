// Benchmark: the English text front end against public suites nobody here wrote.
//   Text normalisation: NVIDIA NeMo-text-processing's English cases, per semiotic class. A case
//   passes when espeak-ng (after kokoro-js's own normalisation) gives our spoken text the same
//   phonemes as one of the suite's spoken forms; "kokoro-js alone" feeds it the raw input.
//   Sentence boundaries: the Golden Rules of pySBD / Pragmatic Segmenter per language, with merging of short
//   sentences and the early first piece turned off (they are latency policy, not boundaries).
// Method and limits: docs/benchmarks/text-front-end.md. Usage: npm run -w runtime bench:text
//   [-- --failures <class|all|sbd>] (prints the failing cases of a class)
//   [-- --sbd-only] (sentence boundaries only: seconds instead of minutes)
//   [-- --front-end <path of another text/index.ts>] (e.g. a copy of an older version, to compare).
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type * as TextStage from '../src/text/index.ts';
import { kokoroPhonemes } from './kokoro-phonemes.ts';
import {
  canonicalPhonemes,
  editDistance,
  GOLDEN_RULE_FILES,
  loadGoldenRules,
  type SbdCase,
  loadNemoCases,
  referenceVariants,
  type TnCase,
} from './text-suite-cases.ts';

const { values } = parseArgs({
  options: { failures: { type: 'string' }, 'front-end': { type: 'string' }, 'sbd-only': { type: 'boolean' } },
});
const show = values.failures;
const frontEnd =
  values['front-end'] === undefined ? '../src/text/index.ts' : pathToFileURL(resolve(values['front-end'])).href;
const { normalizeForSpeech, SentenceSegmenter } = (await import(frontEnd)) as typeof TextStage;

interface Scored {
  c: TnCase;
  spoken: string;
  ours: string;
  alone: string;
  refs: string[];
  pass: boolean;
  passAlone: boolean;
  per: number;
}

const cache = new Map<string, string>();
async function phonemes(text: string): Promise<string> {
  let p = cache.get(text);
  if (p === undefined) cache.set(text, (p = canonicalPhonemes(await kokoroPhonemes(text))));
  return p;
}

async function score(c: TnCase): Promise<Scored> {
  const spoken = normalizeForSpeech(c.input).spoken;
  const ours = await phonemes(spoken);
  const alone = await phonemes(c.input);
  const refs: string[] = [];
  for (const r of c.references.flatMap(referenceVariants)) refs.push(await phonemes(r));
  const dist = (p: string): number => Math.min(...refs.map((r) => editDistance(p, r) / Math.max(1, [...r].length)));
  return {
    c,
    spoken,
    ours,
    alone,
    refs,
    pass: refs.includes(ours),
    passAlone: refs.includes(alone),
    per: dist(ours),
  };
}

const pct = (k: number, n: number): string => `${((100 * k) / Math.max(1, n)).toFixed(0)}%`;

async function textNormalisation(): Promise<void> {
  const cases = loadNemoCases();
  const scored: Scored[] = [];
  for (const c of cases) scored.push(await score(c));
  const classes = [...new Set(scored.map((s) => s.c.semioticClass))].sort();
  console.log('\nText normalisation: NeMo-text-processing English cases (phonemes equal to a reference)\n');
  console.log('| class | cases | kokoro-js alone | ours | ours, phoneme error rate |');
  console.log('|---|---:|---:|---:|---:|');
  const row = (name: string, set: Scored[]): void => {
    const n = set.length;
    const alone = set.filter((s) => s.passAlone).length;
    const ours = set.filter((s) => s.pass).length;
    const per = set.reduce((a, s) => a + s.per, 0) / Math.max(1, n);
    console.log(
      `| ${name} | ${n} | ${alone} (${pct(alone, n)}) | ${ours} (${pct(ours, n)}) | ${(100 * per).toFixed(1)}% |`,
    );
  };
  for (const k of classes)
    row(
      k,
      scored.filter((s) => s.c.semioticClass === k),
    );
  row('**all**', scored);
  if (show === undefined || show === 'sbd') return;
  console.log(`\nFailing cases${show === 'all' ? '' : ` of ${show}`}:`);
  for (const s of scored) {
    if (s.pass || (show !== 'all' && s.c.semioticClass !== show)) continue;
    console.log(`- [${s.c.semioticClass}] ${JSON.stringify(s.c.input)} -> ${JSON.stringify(s.spoken)}`);
    console.log(`    want ${JSON.stringify(s.c.references[0])}; ours ${s.ours} vs ${s.refs[0]}`);
  }
}

type SbdLanguage = keyof typeof GOLDEN_RULE_FILES;

function segment(text: string, language: SbdLanguage): string[] {
  // (a front end from before the language option ignores it: English rules for every language)
  const options = { earlyFirstPiece: false, minChars: 1, firstMinChars: 1, maxChars: 2000, language };
  const s = new SentenceSegmenter(options);
  return [...s.push(text), ...s.flush()];
}

function sentenceBoundaries(): void {
  console.log('\nSentence boundaries: pySBD golden rules per language (whole case right)\n');
  console.log('| language | cases | right | with the English rules |');
  console.log('|---|---:|---:|---:|');
  const failures: string[] = [];
  for (const language of Object.keys(GOLDEN_RULE_FILES) as SbdLanguage[]) {
    const rules = loadGoldenRules(language);
    const right = (r: SbdCase, as: SbdLanguage) => JSON.stringify(segment(r.text, as)) === JSON.stringify(r.sentences);
    const failed = rules.filter((r) => !right(r, language));
    const passed = rules.length - failed.length;
    const english = rules.filter((r) => right(r, 'en')).length;
    console.log(
      `| ${language} | ${rules.length} | ${passed} (${pct(passed, rules.length)}) | ${english} (${pct(english, rules.length)}) |`,
    );
    for (const r of failed) {
      failures.push(`- ${language} rule ${r.rule} (${r.name})`);
      if (show === 'sbd' || show === 'all') {
        failures.push(`    want ${JSON.stringify(r.sentences)}\n    got  ${JSON.stringify(segment(r.text, language))}`);
      }
    }
  }
  console.log(failures.length > 0 ? `\nFailing:\n${failures.join('\n')}` : '\nNo failures.');
}

console.log(
  `${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${frontEnd}`,
);
if (values['sbd-only'] !== true) await textNormalisation();
sentenceBoundaries();
