// Small statistics helpers for the benchmark report.
import { loadavg } from 'node:os';

/** The machine's 1, 5 and 15 minute load averages, printed beside every figure (shared machines). */
export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** A deterministic pseudo-random generator (mulberry32), so runs are comparable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
