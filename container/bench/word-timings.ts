// Word timing accuracy and cost, in one run: on the stand-in model with a durations output, the
// engine's word times against the stand-in's own arithmetic (exact by construction: the error must
// be 0), then the estimate made without durations (every token equally long) against those exact
// times; and the text preparation cost of mapping words to tokens (with and without word maps).
//   npm run -w container bench:words
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAME_SAMPLES, standInFrames, writeFixtureModel } from '../src/fixture/index.ts';
import { loadKokoroEngine } from '../src/engine/index.ts';
import { pieceWordTimings } from '../src/engine/word-timings.ts';
import { percentile } from './stats.ts';

const CORPUS = [
  'Sure, I can help with that.',
  'Your order shipped this morning and should arrive on Thursday.',
  'The total comes to $42.50, including tax.',
  'Out of the box, it speaks twenty-five voices in two accents.',
  'Kokoro is an open-weight text to speech model with 82 million parameters.',
  'If the stream breaks, the session reconnects once and resends what was not complete.',
  'Is there anything else I can do for you today?',
  'The meeting moved to 3:30 pm on May 5th, in room 12B.',
  'Streaming speech starts speaking early, because the first clause is spoken at once.',
  'Dr. Smith said the results were in the top 10% of all the trials so far.',
];
const SPEEDS = [0.8, 1, 1.25];
const WARM_UP = [
  'Warming up the model.',
  'The total is $12.50, due on May 5th at 3:45 pm; call 555-0100 with questions.',
  "Dr. Smith's team shipped 1,024 units, which is 12% more than last year's order!",
];

const dir = await mkdtemp(join(tmpdir(), 'kokoro-words-bench-'));
await writeFixtureModel(dir, { durations: true });
try {
  const engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
  const exactErr: number[] = [];
  const startErr: number[] = [];
  const endErr: number[] = [];
  let words = 0;
  const ms = (samples: number) => (samples / 24000) * 1000;
  for (const speed of SPEEDS) {
    for (const text of CORPUS) {
      for (const piece of await engine.prepare(text, 'af_heart')) {
        const { audio, frames } = await engine.synthesizeTimed(piece, 'af_heart', speed);
        const model = pieceWordTimings(piece.words!, piece.tokenIds.length, audio.length, frames);
        const estimate = pieceWordTimings(piece.words!, piece.tokenIds.length, audio.length, null);
        // The stand-in's arithmetic, independently: frames per token x FRAME_SAMPLES.
        const truth = [0, ...piece.tokenIds, 0].map((id) => standInFrames(id, speed));
        const at = (token: number) => truth.slice(0, token + 1).reduce((s, f) => s + f, 0) * FRAME_SAMPLES;
        piece.words!.forEach((w, i) => {
          words++;
          exactErr.push(Math.abs(model.words[i]!.startSample - at(w.tokenStart)));
          exactErr.push(Math.abs(model.words[i]!.endSample - at(w.tokenEnd)));
          startErr.push(Math.abs(ms(estimate.words[i]!.startSample - model.words[i]!.startSample)));
          endErr.push(Math.abs(ms(estimate.words[i]!.endSample - model.words[i]!.endSample)));
        });
      }
    }
  }
  await engine.close();

  // Preparation cost: two engines, with and without word maps, taking turns on the same texts.
  // Round 0 sees the words for the first time; later rounds reuse them (the word cache), as a
  // conversation does. espeak-ng's WebAssembly runs 10-30x slower for its first calls while V8
  // compiles it, so both warm up first.
  const engines = {
    without: await loadKokoroEngine({ modelDir: dir, prepWorkers: 1, wordMaps: false }),
    with: await loadKokoroEngine({ modelDir: dir, prepWorkers: 1, wordMaps: true }),
  };
  for (const e of Object.values(engines))
    for (let i = 0; i < 4; i++) for (const t of WARM_UP) await e.prepare(t, 'af_heart');
  const times = { without: [[], []] as number[][], with: [[], []] as number[][] };
  for (let round = 0; round < 5; round++) {
    for (const text of CORPUS) {
      for (const kind of ['without', 'with'] as const) {
        const t0 = performance.now();
        await engines[kind].prepare(`${text} (${round})`, 'af_heart');
        times[kind][round === 0 ? 0 : 1]!.push(performance.now() - t0);
      }
    }
  }
  for (const e of Object.values(engines)) await e.close();
  const without = { first: percentile(times.without[0]!, 50), later: percentile(times.without[1]!, 50) };
  const withMaps = { first: percentile(times.with[0]!, 50), later: percentile(times.with[1]!, 50) };

  const f = (x: number) => x.toFixed(1);
  console.log(
    `word timing accuracy, ${new Date().toISOString()}: stand-in model with a durations output, ${CORPUS.length} sentences x speeds ${SPEEDS.join('/')}, ${words} words`,
  );
  console.log(
    `  from the model's durations vs the stand-in's own arithmetic: max error ${Math.max(...exactErr)} samples (exact by construction)`,
  );
  console.log(
    `  estimated from token counts (no durations) vs exact: start error p50 ${f(percentile(startErr, 50))} ms, p95 ${f(percentile(startErr, 95))} ms, max ${f(Math.max(...startErr))} ms; end error p50 ${f(percentile(endErr, 50))} ms, p95 ${f(percentile(endErr, 95))} ms, max ${f(Math.max(...endErr))} ms`,
  );
  console.log(
    `text preparation per sentence (p50, 1 prep worker each, alternating): first sight of its words ${f(withMaps.first)} ms with word maps vs ${f(without.first)} ms without (${(withMaps.first / without.first).toFixed(2)}x); words seen before ${f(withMaps.later)} ms vs ${f(without.later)} ms (${(withMaps.later / without.later).toFixed(2)}x)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
