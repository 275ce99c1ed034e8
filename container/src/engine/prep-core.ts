// The prep worker's body (loaded by prep-worker.ts once onnxruntime-node is stubbed out):
// kokoro-js's own text normalisation, espeak-ng phonemisation and tokenisation, off the event loop (about 7 ms of CPU per sentence, field notes section 1). It reuses
// KokoroTTS.generate() with the model call cut off, so the text goes through exactly the code
// kokoro-js runs, and it splits what would overflow the model instead of letting the tokenizer
// truncate it silently.
import { parentPort, workerData } from 'node:worker_threads';
import { AutoTokenizer, env, type Tensor } from '@huggingface/transformers';
import { KokoroTTS } from 'kokoro-js';
import { halve, sentences } from './split.ts';
import type { PreparedPiece } from './types.ts';
import { MAX_PIECE_TOKENS } from './types.ts';

export interface PrepRequest {
  id: number;
  text: string;
  lang: 'a' | 'b';
}
export type PrepReply = { id: number; pieces: PreparedPiece[] } | { id: number; error: string } | { ready: true };

const { modelDir } = workerData as { modelDir: string };
env.allowRemoteModels = false;
const tokenizer = await AutoTokenizer.from_pretrained(modelDir);

let lastPhonemes = '';
/** KokoroTTS with its model call replaced: generate() resolves with the token ids it would use. */
class Preparer extends KokoroTTS {
  override async generate_from_ids(ids: Tensor): Promise<never> {
    return ids as never;
  }
}
// The model is never called; only generate()'s text path runs.
const preparer = new Preparer(
  null as never,
  ((phonemes: string) => {
    lastPhonemes = phonemes;
    return tokenizer(phonemes, { add_special_tokens: false, truncation: false });
  }) as never,
);

// Any voice of the right language: only its first letter reaches the phonemiser.
const LANGUAGE_VOICE = { a: 'af_heart', b: 'bf_emma' } as const;

async function prepareOne(text: string, lang: 'a' | 'b'): Promise<PreparedPiece> {
  const ids = (await preparer.generate(text, { voice: LANGUAGE_VOICE[lang] })) as unknown as Tensor;
  return { text, phonemes: lastPhonemes, tokenIds: Array.from(ids.data as BigInt64Array, Number) };
}

async function prepare(text: string, lang: 'a' | 'b'): Promise<PreparedPiece[]> {
  const out: PreparedPiece[] = [];
  const visit = async (part: string): Promise<void> => {
    const piece = await prepareOne(part, lang);
    if (piece.tokenIds.length <= MAX_PIECE_TOKENS || part.length < 2) {
      if (piece.tokenIds.length > 0) out.push({ ...piece, tokenIds: piece.tokenIds.slice(0, MAX_PIECE_TOKENS) });
      return;
    }
    for (const half of halve(part)) await visit(half);
  };
  for (const sentence of sentences(text)) await visit(sentence);
  return out;
}

// Warm espeak-ng's wasm before declaring the worker ready: its first call costs ~0.5 s.
await prepareOne('Ready.', 'a');
parentPort!.postMessage({ ready: true } satisfies PrepReply);

parentPort!.on('message', (req: PrepRequest) => {
  prepare(req.text, req.lang).then(
    (pieces) => parentPort!.postMessage({ id: req.id, pieces } satisfies PrepReply),
    (err: unknown) =>
      parentPort!.postMessage({ id: req.id, error: String((err as Error)?.message ?? err) } satisfies PrepReply),
  );
});
