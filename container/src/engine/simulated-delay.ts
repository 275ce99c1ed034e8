// Benchmark aid: an engine decorator that adds wall time to every model run, to mimic a GPU's
// per-piece latency on a fast stand-in (SIMULATED_DELAY_MS + SIMULATED_DELAY_PER_CHAR_MS per
// character). It wraps any Engine and never looks at which model is loaded.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine, PreparedPiece } from './types.ts';

export function withSimulatedDelay(engine: Engine, delayMs: number, perCharMs: number): Engine {
  if (delayMs <= 0 && perCharMs <= 0) return engine;
  return {
    get sampleRate() {
      return engine.sampleRate;
    },
    get voices() {
      return engine.voices;
    },
    hasVoice: (voice) => engine.hasVoice(voice),
    prepare: (text, voice) => engine.prepare(text, voice),
    async synthesize(piece: PreparedPiece, voice: string, speed: number) {
      const started = performance.now();
      const audio = await engine.synthesize(piece, voice, speed);
      const wait = delayMs + perCharMs * piece.text.length - (performance.now() - started);
      if (wait > 0) await sleep(wait);
      return audio;
    },
    close: () => engine.close(),
  };
}
