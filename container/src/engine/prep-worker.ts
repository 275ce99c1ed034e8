// Entry of a text preparation worker thread. kokoro-js and transformers.js import onnxruntime-node
// at load time, but this thread never runs the model, and a worker thread that has loaded
// onnxruntime-node corrupts the process heap when it is terminated (reproduced: a later model run
// or exit aborts with "free(): invalid pointer"). So before loading them, `onnxruntime-node`
// resolves to onnxruntime-common: the same JavaScript API (Tensor, env) without the native binding.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    return nextResolve(specifier === 'onnxruntime-node' ? 'onnxruntime-common' : specifier, context);
  },
});

await import('./prep-core.ts');
