// Benchmark and test aid: an engine decorator that adds wall time to every model run, to mimic a
// GPU's per-piece latency on a fast stand-in (delayMs + perCharMs per character; the benchmark
// entry, bench-main.ts, reads them from SIMULATED_DELAY_MS and SIMULATED_DELAY_PER_CHAR_MS). It
// wraps any Engine and never looks at which model is loaded.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine, PreparedPiece, Synthesis } from '../engine/types.ts';

export function withSimulatedDelay(engine: Engine, delayMs: number, perCharMs: number): Engine {
  if (delayMs <= 0 && perCharMs <= 0) return engine;
  const delayed = async <T>(piece: PreparedPiece, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    const wait = delayMs + perCharMs * piece.text.length - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    return result;
  };
  const timed = engine.synthesizeTimed?.bind(engine);
  return {
    get sampleRate() {
      return engine.sampleRate;
    },
    get voices() {
      return engine.voices;
    },
    get wordTimings() {
      return engine.wordTimings;
    },
    get voiceInfo() {
      return engine.voiceInfo;
    },
    get refusedVoices() {
      return engine.refusedVoices;
    },
    get symbols() {
      return engine.symbols;
    },
    hasVoice: (voice) => engine.hasVoice(voice),
    prepare: (text, voice) => engine.prepare(text, voice),
    synthesize: (piece: PreparedPiece, voice: string, speed: number) =>
      delayed(piece, () => engine.synthesize(piece, voice, speed)),
    ...(timed
      ? {
          synthesizeTimed: (piece: PreparedPiece, voice: string, speed: number): Promise<Synthesis> =>
            delayed(piece, () => timed(piece, voice, speed)),
        }
      : {}),
    close: () => engine.close(),
  };
}
