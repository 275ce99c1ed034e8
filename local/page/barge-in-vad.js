// The page's own voice activity detector, for barge-in: Silero VAD v5 in the browser through
// @ricky0123/vad-web (its UMD bundle, loaded on the first Talk, since the page has no build step;
// the model runs in onnxruntime-web's WebAssembly build, from the page's own origin). It listens to
// the same microphone stream as the capture and calls `onSpeech()` once speech has lasted
// BARGE_IN_MIN_MS, so that a cough or an "mm-hm" does not cut the answer, exactly as the agent's
// own rule (VOICE_BARGE_IN_MIN_MS). The page stops playback at once then; the agent is told after.

/** The agent's default minimum of speech over an answer that cuts it (runtime/README.md, VOICE_BARGE_IN_MIN_MS). */
export const BARGE_IN_MIN_MS = 250;

const BUNDLE = '/vendor/vad-web/bundle.min.js';
const ASSETS = '/vendor/vad-web/'; // silero_vad_v5.onnx and vad.worklet.bundle.min.js
const ORT_WASM = '/vendor/onnxruntime-web/'; // ort-wasm-simd-threaded.{mjs,wasm}

let loading = null;
/** The bundle defines `vad` on the page's global object (UMD); loaded once. */
function loadVadWeb() {
  loading ??= new Promise((resolve, reject) => {
    if (globalThis.vad?.MicVAD) return resolve(globalThis.vad);
    const script = document.createElement('script');
    script.src = BUNDLE;
    script.onload = () =>
      globalThis.vad?.MicVAD ? resolve(globalThis.vad) : reject(new Error(`${BUNDLE} defined no MicVAD`));
    script.onerror = () => reject(new Error(`${BUNDLE} did not load`));
    document.head.append(script);
  }).catch((err) => {
    loading = null; // a later Talk tries again
    throw err;
  });
  return loading;
}

/**
 * Loads Silero (the bundle, the weights, the WebAssembly runtime: seconds on a slow machine, so
 * before the microphone opens, and barge-in works from the first answer on). Resolves with
 * {start(stream, ctx), close()}: `start` listens to the capture's stream in its context;
 * `onSpeechStart()` at each onset, then `onSpeech()` once that speech has lasted BARGE_IN_MIN_MS.
 * Rejects with why it cannot run here (the caller falls back to the agent's own detector).
 */
export async function loadBargeInVad({ onSpeechStart, onSpeech, onFrame }) {
  const { MicVAD } = await loadVadWeb();
  let source = null; // {stream, ctx} once started
  const vad = await MicVAD.new({
    model: 'v5',
    baseAssetPath: ASSETS,
    onnxWASMBasePath: ORT_WASM,
    startOnLoad: false,
    // No output: a worklet node without outputs is processed without being wired to the speakers.
    workletOptions: { numberOfOutputs: 0 },
    // The capture owns the stream: the VAD reads it, and never stops or re-opens it.
    getStream: async () => source.stream,
    pauseStream: async () => {},
    resumeStream: async () => source.stream,
    minSpeechMs: BARGE_IN_MIN_MS,
    ortConfig: (ort) => {
      ort.env.logLevel = 'error';
      ort.env.wasm.numThreads = 1; // no cross-origin isolation here: no threads anyway, and no probe
    },
    onFrameProcessed: (probabilities) => onFrame?.(probabilities.isSpeech),
    onSpeechStart: () => onSpeechStart?.(),
    onSpeechRealStart: () => onSpeech(),
  });
  return {
    start: async (stream, ctx) => {
      source = { stream, ctx };
      vad.options.audioContext = ctx; // read by start(): the capture's context, not one of its own
      await vad.start();
    },
    close: () => vad.destroy().catch(() => {}),
  };
}
