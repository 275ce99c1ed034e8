// Test and benchmark aid: an engine decorator that runs `around` each model run (synthesize and
// synthesizeTimed) and forwards everything else to the wrapped engine as it is, so that a suite can
// record, hold back, fail or slow down runs while the real engine does the work.
import type { Engine, PreparedPiece } from '../engine/types.ts';

/** Called for every model run of `piece`; `run` starts the wrapped engine's run. */
export type AroundRun = <T>(piece: PreparedPiece, run: () => Promise<T>) => Promise<T>;

/** Read through to the wrapped engine on every access (a wrapped engine may change them). */
const FORWARDED = ['sampleRate', 'voices', 'wordTimings', 'voiceInfo', 'refusedVoices', 'symbols'] as const;

export function aroundRuns(engine: Engine, around: AroundRun): Engine {
  const timed = engine.synthesizeTimed?.bind(engine);
  const wrapped: Engine = {
    hasVoice: (voice) => engine.hasVoice(voice),
    prepare: (text, voice) => engine.prepare(text, voice),
    synthesize: (piece, voice, speed) => around(piece, () => engine.synthesize(piece, voice, speed)),
    ...(timed ? { synthesizeTimed: (piece, voice, speed) => around(piece, () => timed(piece, voice, speed)) } : {}),
    close: () => engine.close(),
  } as Engine;
  for (const key of FORWARDED) Object.defineProperty(wrapped, key, { get: () => engine[key], enumerable: true });
  return wrapped;
}
