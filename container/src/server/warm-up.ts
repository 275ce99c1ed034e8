// Warming the model up before /ping answers 200: text preparation in every worker, one discarded
// model run, and a timed run that gives admission control its first estimate.
import type { Engine } from '../engine/types.ts';

// Text preparation (espeak-ng in WASM, kokoro-js normalisation) runs 10-30x slower for its first
// few calls in each worker while V8 compiles it, so every worker gets a few varied texts; then one
// discarded model run, as /ping promises.
const WARM_UP_TEXTS = [
  'Warming up the model.',
  'The total is $12.50, due on May 5th at 3:45 pm; call 555-0100 with questions.',
  "Dr. Smith's team shipped 1,024 units, which is 12% more than last year's order!",
];

export async function warmUp(
  engine: Engine,
  voice: string,
  workers: number,
  observeRun: (ms: number, audioMs: number) => void,
): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        engine.prepare(WARM_UP_TEXTS[(i + round) % WARM_UP_TEXTS.length]!, voice),
      ),
    );
  }
  const [piece] = await engine.prepare(WARM_UP_TEXTS[0]!, voice);
  if (!piece) return;
  await engine.synthesize(piece, voice, 1);
  // A second run, past the first run's one-off initialisation, on a sentence of typical length
  // (a short one would overstate the per-run overhead): admission control's first estimate of
  // model time per audio second.
  const [typical] = await engine.prepare(WARM_UP_TEXTS[2]!, voice);
  if (!typical) return;
  const started = performance.now();
  const audio = await engine.synthesize(typical, voice, 1);
  observeRun(performance.now() - started, (audio.length / engine.sampleRate) * 1000);
}
