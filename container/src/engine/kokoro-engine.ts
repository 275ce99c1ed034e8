// The Kokoro-82M engine: kokoro-js (transformers.js + onnxruntime-node) for loading and the model
// call, worker threads for text preparation, our own voice store (so voices under the model dir
// work too). Model runs are async onnxruntime calls, so the event loop stays free while they run.
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { env, Tensor } from '@huggingface/transformers';
import { KokoroTTS } from 'kokoro-js';
import { blendLanguageVoice } from '@kokoro-speech/protocol';
import { PrepPool } from './prep-pool.ts';
import { plainScript, type Script } from './script.ts';
import type { Engine, PreparedPiece, RefusedVoice, Synthesis, VoiceInfo } from './types.ts';
import { NATIVE_SAMPLE_RATE } from './types.ts';
import { voiceLanguage } from './languages.ts';
import { describeVoice, KOKORO_V1_VOICES } from './voice-catalog.ts';
import { VoiceStore } from './voices.ts';
import { framesFromDurations } from './word-timings.ts';

/** Output names of per-token durations in Kokoro exports (the timestamped onnx-community export
 *  calls it `durations`; other exports `duration` or `pred_dur`). Read from the session at load. */
export const DURATION_OUTPUTS = ['durations', 'duration', 'pred_dur'] as const;

export const DTYPES = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'] as const;
export type Dtype = (typeof DTYPES)[number];
export const DEVICES = ['cpu', 'cuda'] as const;
export type Device = (typeof DEVICES)[number];

/** The ONNX file transformers.js loads for each dtype (docs/design/kokoro-model.md#files-and-dtypes). */
export const MODEL_FILE: Record<Dtype, string> = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
  q4: 'onnx/model_q4.onnx',
  q4f16: 'onnx/model_q4f16.onnx',
};

export interface EngineOptions {
  /** Folder with config.json, tokenizer files and onnx/ (SageMaker: /opt/ml/model). */
  modelDir: string;
  dtype?: Dtype;
  device?: Device;
  /** Text preparation worker threads; default: cores - 1, between 1 and 4. */
  prepWorkers?: number;
  /** Called with each start-up stage and its duration. */
  onStage?: (stage: string, ms: number) => void;
  /** Map words to tokens while preparing text (default true; false: no word timings, less CPU). */
  wordMaps?: boolean;
  /** Called with each problem that does not stop start-up (a refused voice file). */
  onWarning?: (message: string, detail: Record<string, unknown>) => void;
}

export interface KokoroEngine extends Engine {
  readonly dtype: Dtype;
  readonly device: Device;
  /** One discarded synthesis, so the first real request does not pay for lazy initialisation. */
  warmUp(): Promise<void>;
  readonly wordTimings: 'model' | 'estimate';
  synthesizeTimed(piece: PreparedPiece, voice: string, speed: number): Promise<Synthesis>;
  /** The model's durations output, if it has one. */
  readonly durationsOutput: string | null;
  readonly voiceInfo: readonly VoiceInfo[];
  readonly refusedVoices: readonly RefusedVoice[];
  readonly symbols: ReadonlySet<string>;
}

async function timed<T>(stage: string, onStage: EngineOptions['onStage'], work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await work();
  onStage?.(stage, Math.round(performance.now() - t0));
  return result;
}

async function checkModelDir(dir: string, dtype: Dtype): Promise<void> {
  const needed = ['config.json', 'tokenizer.json', 'tokenizer_config.json', MODEL_FILE[dtype]];
  const missing: string[] = [];
  for (const file of needed) await access(join(dir, file)).catch(() => missing.push(file));
  if (missing.length > 0) {
    throw new Error(
      `model folder ${dir} is missing ${missing.join(', ')} (dtype ${dtype} loads ${MODEL_FILE[dtype]}); ` +
        'set KOKORO_MODEL_DIR to a Kokoro-82M ONNX folder (onnx-community/Kokoro-82M-v1.0-ONNX layout)',
    );
  }
}

export async function loadKokoroEngine(options: EngineOptions): Promise<KokoroEngine> {
  const dtype = options.dtype ?? 'fp32';
  const device = options.device ?? 'cpu';
  if (!DTYPES.includes(dtype)) throw new Error(`unknown dtype "${dtype}"; expected one of ${DTYPES.join(', ')}`);
  if (!DEVICES.includes(device)) throw new Error(`unknown device "${device}"; expected one of ${DEVICES.join(', ')}`);
  // An absolute path: transformers.js takes a relative "a/b" for a Hub model id.
  const modelDir = resolve(options.modelDir);
  await checkModelDir(modelDir, dtype);
  env.allowRemoteModels = false;

  const workers = options.prepWorkers ?? Math.min(4, Math.max(1, availableParallelism() - 1));
  const pool = new PrepPool(modelDir, workers, options.wordMaps ?? true);
  try {
    const tts = await timed('load_model', options.onStage, () =>
      // kokoro-js's typings list browser devices only; transformers.js on Node accepts "cuda".
      KokoroTTS.from_pretrained(modelDir, { dtype, device: device as 'cpu' }),
    );
    const voices = await timed('load_voices', options.onStage, () =>
      VoiceStore.open(modelDir, new Set([...Object.keys(tts.voices), ...KOKORO_V1_VOICES])),
    );
    for (const r of voices.refused) options.onWarning?.(`voice refused: ${r.reason}`, { voice: r.id, file: r.file });
    await timed('start_prep_workers', options.onStage, () => pool.ready());
    const outputs: readonly string[] = (tts.model as unknown as ModelSessions).sessions?.model?.outputNames ?? [];
    const durationsOutput = DURATION_OUTPUTS.find((name) => outputs.includes(name)) ?? null;
    return new KokoroJsEngine(tts, voices, pool, dtype, device, durationsOutput);
  } catch (err) {
    await pool.close();
    throw err;
  }
}

/** transformers.js keeps the ONNX session of a single-file model under sessions.model. */
interface ModelSessions {
  sessions?: { model?: { outputNames?: readonly string[] } };
}

class KokoroJsEngine implements KokoroEngine {
  readonly sampleRate = NATIVE_SAMPLE_RATE;
  readonly voices: readonly string[];
  readonly dtype: Dtype;
  readonly device: Device;
  readonly durationsOutput: string | null;
  readonly wordTimings: 'model' | 'estimate';
  readonly voiceInfo: readonly VoiceInfo[];
  readonly refusedVoices: readonly RefusedVoice[];
  readonly symbols: ReadonlySet<string>;
  readonly #tts: KokoroTTS;
  readonly #store: VoiceStore;
  readonly #pool: PrepPool;
  /** Model runs in flight: close() waits for them, since disposing a session mid-run crashes onnxruntime. */
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    tts: KokoroTTS,
    store: VoiceStore,
    pool: PrepPool,
    dtype: Dtype,
    device: Device,
    durationsOutput: string | null,
  ) {
    this.#tts = tts;
    this.#store = store;
    this.#pool = pool;
    this.voices = store.ids;
    this.dtype = dtype;
    this.device = device;
    this.durationsOutput = durationsOutput;
    this.wordTimings = durationsOutput ? 'model' : 'estimate';
    this.refusedVoices = store.refused;
    // The model's own tokenizer: one token per phoneme symbol (docs/design/languages.md).
    const vocab = (tts.tokenizer as unknown as { model: { tokens_to_ids: Map<string, number> } }).model.tokens_to_ids;
    this.symbols = new Set(vocab.keys());
    const published = tts.voices as Record<string, Record<string, string | undefined>>;
    this.voiceInfo = store.ids.map((id) => describeVoice(id, published[id], store.sources.get(id) ?? 'model-dir'));
  }

  /** A voice id, or a blend of them (voice-blend.ts in the protocol package). */
  hasVoice(voice: string): boolean {
    if (this.#store.has(voice)) return true;
    try {
      this.#store.parts(voice);
      return true;
    } catch {
      return false;
    }
  }

  /** A blend speaks its first voice's language, as in Kokoro-FastAPI (docs/design/voice-blends.md). */
  prepare(text: string | Script, voice: string): Promise<PreparedPiece[]> {
    const script = typeof text === 'string' ? plainScript(text) : text;
    return this.#pool.prepare(script, voiceLanguage(this.#store.has(voice) ? voice : blendLanguageVoice(voice)));
  }

  // Mirrors kokoro-js's generate_from_ids (pads at both ends, style row by length, float32 speed),
  // with the style taken from our voice store so that model-dir voices work.
  async synthesize(piece: PreparedPiece, voice: string, speed: number): Promise<Float32Array> {
    return (await this.synthesizeTimed(piece, voice, speed)).audio;
  }

  async synthesizeTimed(piece: PreparedPiece, voice: string, speed: number): Promise<Synthesis> {
    if (this.#closed) throw new Error('the engine is closed');
    const run = this.#run(piece, voice, speed);
    this.#running.add(run);
    try {
      return await run;
    } finally {
      this.#running.delete(run);
    }
  }

  async #run(piece: PreparedPiece, voice: string, speed: number): Promise<Synthesis> {
    const ids = BigInt64Array.from([0, ...piece.tokenIds, 0], (id) => BigInt(id));
    const style = await this.#store.style(voice, piece.tokenIds.length);
    const outputs = (await this.#tts.model({
      input_ids: new Tensor('int64', ids, [1, ids.length]),
      style: new Tensor('float32', style, [1, style.length]),
      speed: new Tensor('float32', Float32Array.of(speed), [1]),
    })) as Record<string, Tensor>;
    const durations = this.durationsOutput ? outputs[this.durationsOutput] : undefined;
    const frames = durations ? framesFromDurations(durations.data as ArrayLike<number | bigint>) : null;
    return { audio: outputs['waveform']!.data as Float32Array, frames: frames?.length === ids.length ? frames : null };
  }

  async warmUp(): Promise<void> {
    const [piece] = await this.prepare('Warming up the model.', 'af_heart');
    if (piece) await this.synthesize(piece, this.voices.includes('af_heart') ? 'af_heart' : this.voices[0]!, 1);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
    await Promise.allSettled(this.#running);
    await this.#tts.model.dispose();
  }
}
