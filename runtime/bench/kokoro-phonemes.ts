// Phonemes kokoro-js 1.2.1 would give a text: its own normalisation, then espeak-ng (en-us), with
// the model call cut off (the same subclassing as the container's prep worker), so no model loads.
import { registerHooks } from 'node:module';

// kokoro-js loads transformers.js, which loads onnxruntime-node's native binding at import time;
// nothing here runs a model, so the JavaScript API alone (onnxruntime-common) is enough.
registerHooks({
  resolve(specifier, context, nextResolve) {
    return nextResolve(specifier === 'onnxruntime-node' ? 'onnxruntime-common' : specifier, context);
  },
});

const { KokoroTTS } = await import('kokoro-js');

interface Captured {
  phonemes: string;
}

class PhonemeCapture extends KokoroTTS {
  override async generate_from_ids(ids: never): Promise<never> {
    return ids;
  }
}

const capture = new PhonemeCapture(
  null as never,
  ((phonemes: string): { input_ids: Captured } => ({ input_ids: { phonemes } })) as never,
);

/** The phonemes kokoro-js speaks `text` with (American English). */
export async function kokoroPhonemes(text: string): Promise<string> {
  if (text.trim() === '') return '';
  const ids = (await capture.generate(text, { voice: 'af_heart' })) as unknown as Captured;
  return ids.phonemes;
}
