// Benchmark and test aid: an engine decorator that adds wall time to every model run, to mimic a
// GPU's per-piece latency on a fast stand-in (delayMs + perCharMs per character; the benchmark
// entry, bench-main.ts, reads them from SIMULATED_DELAY_MS and SIMULATED_DELAY_PER_CHAR_MS). It
// wraps any Engine and never looks at which model is loaded.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../engine/types.ts';
import { aroundRuns } from './around-runs.ts';

export function withSimulatedDelay(engine: Engine, delayMs: number, perCharMs: number): Engine {
  if (delayMs <= 0 && perCharMs <= 0) return engine;
  return aroundRuns(engine, async (piece, run) => {
    const started = performance.now();
    const result = await run();
    const wait = delayMs + perCharMs * piece.text.length - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    return result;
  });
}
