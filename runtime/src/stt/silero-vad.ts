// Silero VAD v5 with its real weights, in Node: the model file and its one-window wrapper (which
// carries the 64-sample context and the recurrent state between windows) come from
// @ricky0123/vad-web, the inference from onnxruntime-node. On top of the per-window speech
// probability sits a small hysteresis state machine (speech-gate.ts). Figures and sources:
// docs/design/voice-in.md#vad.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Silero } from '@ricky0123/vad-web/dist/models/silero.js';
import type { VadEvent, VoiceActivityDetector } from './types.ts';
import { SpeechGate, type SpeechGateOptions } from './speech-gate.ts';

/** Silero v5 at 16 kHz takes windows of exactly 512 samples (32 ms). */
export const SILERO_WINDOW = 512;

/** The weights shipped in @ricky0123/vad-web (v5: the model its README recommends). */
export function sileroModelPath(version: 'v5' | 'v6' = 'v5'): string {
  return createRequire(import.meta.url).resolve(`@ricky0123/vad-web/dist/silero_vad_${version}.onnx`);
}

type SileroModel = Awaited<ReturnType<typeof Silero.new>>;

// Loaded at the first voice session, not at start: onnxruntime-node's native library and vad-web
// cost seconds of a cold start that typed turns (and start-up refusals) never need.
let runtime: Promise<{ ort: typeof import('onnxruntime-node'); Silero: typeof Silero }> | undefined;
function loadRuntime() {
  runtime ??= (async () => {
    const [ort, { Silero }, { log }] = await Promise.all([
      import('onnxruntime-node'),
      import('@ricky0123/vad-web/dist/models/silero.js'),
      import('@ricky0123/vad-web/dist/logging.js'),
    ]);
    // vad-web prints "VAD | debug > Loading VAD..." with console.log on every load: not in the
    // agent's stdout, which carries its JSON log lines. Its errors and warnings still print.
    log.debug = () => {};
    return { ort, Silero };
  })();
  return runtime;
}

/** The weights, read once per version: every voice session loads a detector of its own. */
const weights = new Map<'v5' | 'v6', Promise<Buffer<ArrayBuffer>>>();
function modelBytes(version: 'v5' | 'v6'): Promise<Buffer<ArrayBuffer>> {
  let bytes = weights.get(version);
  if (!bytes) {
    bytes = readFile(sileroModelPath(version));
    bytes.catch(() => weights.delete(version)); // a failed read is tried again next time
    weights.set(version, bytes);
  }
  return bytes;
}

export interface SileroVadOptions extends Partial<Omit<SpeechGateOptions, 'windowSamples'>> {
  /** Which weights (default v5). */
  version?: 'v5' | 'v6';
}

export class SileroVad implements VoiceActivityDetector {
  readonly #model: SileroModel;
  readonly #gate: SpeechGate;
  /** Samples not yet a whole window, as floats in [-1, 1). */
  #pending = new Float32Array(SILERO_WINDOW);
  #pendingLength = 0;
  /** Samples pushed before the pending ones (the next window's first sample). */
  #consumed = 0;
  #busy = false;

  private constructor(model: SileroModel, options: SileroVadOptions) {
    this.#model = model;
    this.#gate = new SpeechGate({ ...options, windowSamples: SILERO_WINDOW });
  }

  /** Loads the weights (about 2 MB, ~50 ms); one detector per audio stream (it keeps state). */
  static async load(options: SileroVadOptions = {}): Promise<SileroVad> {
    const [{ ort, Silero }, bytes] = await Promise.all([loadRuntime(), modelBytes(options.version ?? 'v5')]);
    // vad-web's wrapper is written against onnxruntime-web; onnxruntime-node has the same API.
    const model = await Silero.new(ort as never, async () =>
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    return new SileroVad(model, options);
  }

  async push(pcm: Int16Array): Promise<VadEvent[]> {
    if (this.#busy) throw new Error('SileroVad.push: calls must not overlap (await the previous one)');
    this.#busy = true;
    try {
      const events: VadEvent[] = [];
      for (let i = 0; i < pcm.length; i++) {
        this.#pending[this.#pendingLength++] = pcm[i]! / 32768;
        if (this.#pendingLength < SILERO_WINDOW) continue;
        // process() keeps a copy of the window's tail, so the buffer can be refilled at once.
        const { isSpeech } = await this.#model.process(this.#pending);
        const event = this.#gate.window(this.#consumed, isSpeech);
        if (event) events.push(event);
        this.#consumed += SILERO_WINDOW;
        this.#pendingLength = 0;
      }
      return events;
    } finally {
      this.#busy = false;
    }
  }

  reset(): void {
    this.#model.reset_state();
    this.#gate.reset();
    this.#pendingLength = 0;
    this.#consumed = 0;
  }

  /** Releases the ONNX session. */
  async close(): Promise<void> {
    await this.#model.release();
  }
}
