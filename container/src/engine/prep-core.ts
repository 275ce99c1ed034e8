// The prep worker's body (loaded by prep-worker.ts once onnxruntime-node is stubbed out): text to
// phonemes with the G2P of the voice's language (g2p.ts), the vocabulary check, tokenisation and
// word maps, off the event loop (English costs about 7 ms of CPU per sentence:
// docs/design/kokoro-model.md#text-preparation-cost). It splits what would overflow the model instead of letting the
// tokenizer truncate it silently.
import { parentPort, workerData } from 'node:worker_threads';
import { AutoTokenizer, env, type Tensor } from '@huggingface/transformers';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';
import { phonemize } from './g2p.ts';
import { LANGUAGES, type LanguageCode } from './languages.ts';
import { prepareScript } from './prepare-script.ts';
import type { Script } from './script.ts';
import type { PreparedPiece } from './types.ts';
import { checkVocabulary } from './vocabulary.ts';
import { alignWords, wordsOf } from './word-align.ts';

export interface PrepRequest {
  id: number;
  script: Script;
  lang: LanguageCode;
}
/** `code`: the error's protocol code when it has one (unsupported_language, unspeakable_text). */
export type PrepReply =
  { id: number; pieces: PreparedPiece[] } | { id: number; error: string; code?: string } | { ready: true };

const { modelDir, wordMaps = true } = workerData as { modelDir: string; wordMaps?: boolean };
env.allowRemoteModels = false;
const tokenizer = await AutoTokenizer.from_pretrained(modelDir);
/** The model's symbols (one token per phoneme symbol), from the model folder's own tokenizer. */
const vocab = (tokenizer as unknown as { model: { tokens_to_ids: Map<string, number> } }).model.tokens_to_ids;

function tokenize(phonemes: string): number[] {
  const { input_ids } = tokenizer(phonemes, { add_special_tokens: false, truncation: false }) as { input_ids: Tensor };
  return Array.from(input_ids.data as BigInt64Array, Number);
}

async function prepareOne(text: string, lang: LanguageCode): Promise<PreparedPiece> {
  const phonemes = await phonemize(text, lang);
  checkVocabulary(phonemes, vocab, LANGUAGES[lang].name, text);
  return { text, phonemes, tokenIds: tokenize(phonemes) };
}

// ---- word maps: which tokens speak which word ----

/** Token ids of one phoneme character (Kokoro's vocabulary is one token per IPA symbol). */
const charIds = new Map<string, number[]>();
function idsOfChar(ch: string): number[] {
  let ids = charIds.get(ch);
  if (!ids) {
    const { input_ids } = tokenizer(ch, { add_special_tokens: false, truncation: false }) as { input_ids: Tensor };
    charIds.set(ch, (ids = Array.from(input_ids.data as BigInt64Array, Number)));
  }
  return ids;
}

/** Phonemes of single words, per language: the same words recur in every answer. */
const WORD_CACHE_SIZE = 20_000;
const wordPhonemes = new Map<string, string>();
async function phonemesOfWord(word: string, lang: LanguageCode): Promise<string> {
  const key = `${lang}:${word}`;
  const cached = wordPhonemes.get(key);
  if (cached !== undefined) return cached;
  const { phonemes } = await prepareOne(word, lang);
  if (wordPhonemes.size >= WORD_CACHE_SIZE) wordPhonemes.delete(wordPhonemes.keys().next().value!);
  wordPhonemes.set(key, phonemes);
  return phonemes;
}

async function withWords(piece: PreparedPiece, start: number, lang: LanguageCode): Promise<PreparedPiece> {
  const words = wordsOf(piece.text, start);
  const chars = [...piece.phonemes];
  const perChar = chars.map((ch) => idsOfChar(ch));
  const joined = perChar.flat();
  const aligned = joined.length === piece.tokenIds.length && joined.every((id, i) => id === piece.tokenIds[i]);
  if (!aligned) {
    // A tokenizer that is not one token per character: spread the tokens over the words by length.
    const letters = words.reduce((n, w) => n + (w.end - w.start), 0) || 1;
    let seen = 0;
    const n = piece.tokenIds.length;
    return {
      ...piece,
      offset: start,
      wordsApproximate: true,
      words: words.map((w) => {
        const tokenStart = Math.round((seen / letters) * n);
        seen += w.end - w.start;
        return { start: w.start, end: w.end, tokenStart, tokenEnd: Math.round((seen / letters) * n) };
      }),
    };
  }
  const alone: string[] = [];
  for (const w of words) alone.push(await phonemesOfWord(w.text, lang));
  return {
    ...piece,
    offset: start,
    words: alignWords(
      words,
      piece.phonemes,
      perChar.map((ids) => ids.length),
      alone,
    ),
  };
}

function prepare(script: Script, lang: LanguageCode): Promise<PreparedPiece[]> {
  return prepareScript(script, {
    prepareOne: (text) => prepareOne(text, lang),
    withWords: (piece, start) => withWords(piece, start, lang),
    tokenize,
    wordMaps,
    locale: LANGUAGES[lang].tag,
  });
}

// Warm kokoro-js's espeak-ng wasm before declaring the worker ready: its first call costs ~0.5 s.
// (The espeak-ng build of the other languages loads on their first sentence: g2p.ts.)
await prepareOne('Ready.', 'a');
parentPort!.postMessage({ ready: true } satisfies PrepReply);

parentPort!.on('message', (req: PrepRequest) => {
  prepare(req.script, req.lang).then(
    (pieces) => parentPort!.postMessage({ id: req.id, pieces } satisfies PrepReply),
    (err: unknown) => {
      const code = err instanceof KokoroError ? { code: err.code } : {};
      parentPort!.postMessage({ id: req.id, error: errorMessage(err), ...code } satisfies PrepReply);
    },
  );
});
