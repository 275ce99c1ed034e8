// The local provider (npm start's default, never the deployed agent's): Whisper base (multilingual: all eight turn languages) as onnx-community's
// ONNX export, run in the agent's process by @huggingface/transformers on onnxruntime-node. The
// files come into the same cache as Kokoro's (the weights workspace: <cache>/kokoro-speech/models/
// <repo>/<commit>), each checked against the Hub's own listing (SHA-256 for the LFS files, the git
// blob id for the small ones) before use. Why this model: docs/design/voice-in.md#local-model.
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { TURN_LANGUAGES, type TurnLanguage } from '@kokoro-speech/protocol';
import { openUtteranceStream, SttError, type SpeechToText, type UtteranceLimits } from '@kokoro-speech/runtime/stt';
import { defaultModelDir, readLocalManifest, syncToDirectory } from '@kokoro-speech/weights';

export const WHISPER_ONNX_REPO = 'onnx-community/whisper-base';
/**
 * The revision of the first download. Not a commit in the code (the Hub could not be reached when
 * this was written): `main` is resolved at the first download, every file checked against the
 * Hub's digests for that commit, and the manifest's commit is what later starts use
 * (docs/design/voice-in.md#local-model).
 */
export const WHISPER_ONNX_REVISION = 'main';

/** What transformers.js reads for the q8 encoder and merged decoder (dtype q8). */
export const WHISPER_ONNX_FILES = [
  'config.json',
  'generation_config.json',
  'preprocessor_config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/encoder_model_quantized.onnx',
  'onnx/decoder_model_merged_quantized.onnx',
] as const;

/** Whisper's names for the turn languages (its `language` option). */
const WHISPER_LANGUAGES: Readonly<Record<TurnLanguage, string>> = {
  en: 'english',
  es: 'spanish',
  fr: 'french',
  hi: 'hindi',
  it: 'italian',
  pt: 'portuguese',
  ja: 'japanese',
  zh: 'chinese',
};

export interface LocalWhisperOptions extends UtteranceLimits {
  /** A folder that already holds WHISPER_ONNX_FILES (STT_LOCAL_MODEL_DIR): nothing is downloaded. */
  modelDir?: string;
  /** HF_ENDPOINT, HF_TOKEN, XDG_CACHE_HOME (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Download attempts (default the weights workspace's). */
  attempts?: number;
}

type Recognizer = (
  audio: Float32Array,
  options: Record<string, unknown>,
) => Promise<{ text: string } | { text: string }[]>;

export async function createLocalWhisperSpeechToText(options: LocalWhisperOptions = {}): Promise<SpeechToText> {
  const dir = options.modelDir ?? (await fetchWhisper(options));
  const { pipeline, env } = await import('@huggingface/transformers');
  env.allowRemoteModels = false; // the files were checked above; nothing else is fetched
  env.localModelPath = '';
  let recognize: Recognizer;
  try {
    recognize = (await pipeline('automatic-speech-recognition', dir, {
      dtype: 'q8',
      device: 'cpu',
    })) as unknown as Recognizer;
  } catch (error) {
    throw new SttError('stt_unavailable', `local Whisper (${dir}) could not be loaded: ${errorMessage(error)}`, {
      retryable: false,
      cause: error,
    });
  }
  return {
    name: 'local',
    languages: TURN_LANGUAGES,
    needsVadCuts: true,
    open: (stream) =>
      openUtteranceStream(
        'local Whisper',
        async (pcm, { language }) => {
          const audio = Float32Array.from(pcm, (x) => x / 32768);
          const out = await recognize(audio, { language: WHISPER_LANGUAGES[language], task: 'transcribe' });
          return (Array.isArray(out) ? out.map((o) => o.text).join(' ') : out.text).trim();
        },
        stream,
        options,
      ),
    close: async () => {
      await (recognize as unknown as { dispose?: () => Promise<void> }).dispose?.();
    },
  };
}

/** Downloads (or finds, already checked) the files into the shared model cache; the folder. */
async function fetchWhisper(options: LocalWhisperOptions): Promise<string> {
  const env = options.env ?? process.env;
  const endpoint = env['HF_ENDPOINT'] || 'https://huggingface.co';
  const dir = defaultModelDir(WHISPER_ONNX_REPO, WHISPER_ONNX_REVISION, env);
  // Pinned at the first download: the manifest then names the commit `main` was, and every later
  // start asks for that commit, which a complete folder serves without the network.
  const before = await readLocalManifest(dir);
  const revision = before?.repo === WHISPER_ONNX_REPO ? before.commit : WHISPER_ONNX_REVISION;
  try {
    await syncToDirectory({
      repo: WHISPER_ONNX_REPO,
      revision,
      include: [...WHISPER_ONNX_FILES],
      dir,
      hub: {
        endpoint,
        ...(env['HF_TOKEN'] ? { token: env['HF_TOKEN'] } : {}),
        ...(options.attempts ? { retry: { attempts: options.attempts } } : {}),
      },
    });
  } catch (error) {
    throw new SttError(
      'stt_unavailable',
      [
        `Could not get the local speech-to-text model (${WHISPER_ONNX_REPO} @ ${revision}) from ${endpoint}: ${errorMessage(error)}`,
        'Options:',
        '  npm start -- --offline                   a stand-in that needs no weights (it says how long you spoke)',
        `  STT_LOCAL_MODEL_DIR=/path npm start      a folder holding ${WHISPER_ONNX_FILES.join(', ')}`,
        '  HF_ENDPOINT=https://mirror npm start     download through a Hugging Face mirror',
        '  STT_PROVIDER=openai (STT_OPENAI_BASE_URL, STT_OPENAI_MODEL)   an OpenAI-compatible transcription server',
      ].join('\n'),
      { retryable: false, cause: error },
    );
  }
  return dir;
}
