// The Kokoro engine: load a model folder, prepare text off the event loop, run the model.
export type { Engine, PreparedPiece } from './types.ts';
export { MAX_PIECE_TOKENS, NATIVE_SAMPLE_RATE } from './types.ts';
export { loadKokoroEngine, DTYPES, DEVICES, MODEL_FILE } from './kokoro-engine.ts';
export type { Dtype, Device, EngineOptions, KokoroEngine } from './kokoro-engine.ts';
