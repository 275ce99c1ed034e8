// The long fuzz run of the text front end (the same properties as
// runtime/src/text/front-end.property.test.ts, many more cases): every language, whole and split.
// Run: npm run -w runtime fuzz:text   (KOKORO_FUZZ_RUNS cases per language, default 20000;
// KOKORO_FUZZ_SEED to replay a run). Exits 1 with the shrunk counterexample on the first failure.
import fc from 'fast-check';
import { checkFrontEnd, frontEndCase } from '../src/text/front-end-properties.ts';
import { LANGUAGES } from '../src/text/normalize.ts';

const runs = Number(process.env.KOKORO_FUZZ_RUNS ?? 20000);
if (!Number.isInteger(runs) || runs < 1)
  throw new RangeError(`KOKORO_FUZZ_RUNS must be a positive integer, got ${process.env.KOKORO_FUZZ_RUNS}`);
const seed = process.env.KOKORO_FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.KOKORO_FUZZ_SEED);

let failed = false;
const t0 = performance.now();
for (const language of LANGUAGES) {
  const t = performance.now();
  const result = fc.check(
    fc.property(frontEndCase([language]), (c) => checkFrontEnd(c)),
    { numRuns: runs, seed },
  );
  const seconds = ((performance.now() - t) / 1000).toFixed(1);
  if (result.failed) {
    failed = true;
    console.log(`${language}: FAILED after ${result.numRuns} cases (${seconds} s, seed ${seed})`);
    console.log(fc.defaultReportMessage(result));
  } else console.log(`${language}: ${result.numRuns} cases, no failure (${seconds} s)`);
}
console.log(`seed ${seed}, ${runs} cases per language, ${((performance.now() - t0) / 1000).toFixed(1)} s in all`);
process.exit(failed ? 1 : 0);
