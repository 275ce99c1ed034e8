// Kokoro-FastAPI's request fields beside OpenAI's (its OpenAISpeechRequest and CaptionedSpeechRequest,
// docs/design/drop-in-routes.md#request-extensions): taken out of the body before OpenAI's schema
// reads the rest. Those that mean something here (a language, a volume, whether to stream, whether
// to return timestamps) become options; those that cannot be honoured are refused with a 400 that
// names the field, rather than ignored, so that a client never gets something it did not ask for.
import { LANGUAGES, type LanguageCode } from '../engine/languages.ts';
import { OpenAIError } from './openai-error.ts';

/** The largest volume_multiplier: well past full scale for Kokoro's output (louder only clips). */
export const MAX_VOLUME = 10;

export interface SpeechExtensions {
  /** lang_code: the language the text is read in (its G2P), whatever the voice's own. */
  language?: LanguageCode;
  /** volume_multiplier: the gain applied to every sample (1: as made). */
  volume: number;
  /** stream: false asks for the whole audio in one body (with Content-Length); undefined: the route's default. */
  stream?: boolean;
  /** return_timestamps (captioned speech only): false leaves the words out. */
  timestamps: boolean;
}

export type DropInRoute = 'speech' | 'captioned';

const bad = (param: string, message: string, code = 'invalid_value') =>
  new OpenAIError(400, `${param}: ${message}`, param, code);

/** Kokoro's language letter for a lang_code: the letter itself or the BCP 47 tag the voice list shows. */
function languageOf(value: unknown): LanguageCode {
  if (typeof value !== 'string') throw bad('lang_code', 'must be a string such as "a" or "en-us"');
  const wanted = value.trim().toLowerCase();
  const language = Object.values(LANGUAGES).find((l) => l.code === wanted || l.tag === wanted);
  if (!language) {
    const known = Object.values(LANGUAGES).map((l) => `${l.code} (${l.tag})`);
    throw bad('lang_code', `unknown language ${JSON.stringify(value)}; Kokoro's codes: ${known.join(', ')}`);
  }
  if (language.g2p === 'unavailable') {
    throw bad('lang_code', `${language.name} cannot be spoken here: ${language.unavailable}`, 'unsupported_language');
  }
  return language.code;
}

function flag(param: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw bad(param, 'must be true or false');
  return value;
}

/**
 * Splits a parsed body into Kokoro-FastAPI's fields (as options) and the rest (for OpenAI's schema).
 * On the captioned route the body may leave out `model` and `voice`, as Kokoro-FastAPI's may.
 */
export function takeFastApiExtensions(
  json: unknown,
  route: DropInRoute,
  defaultVoice: string,
): { rest: unknown; ext: SpeechExtensions } {
  const ext: SpeechExtensions = { volume: 1, timestamps: true };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { rest: json, ext };
  const {
    lang_code,
    volume_multiplier,
    stream,
    return_timestamps,
    normalization_options,
    return_download_link,
    download_format,
    ...rest
  } = json as Record<string, unknown>;
  if (lang_code !== undefined && lang_code !== null) ext.language = languageOf(lang_code);
  if (volume_multiplier !== undefined && volume_multiplier !== null) {
    const v = volume_multiplier;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_VOLUME) {
      throw bad('volume_multiplier', `must be a number from 0 to ${MAX_VOLUME}; got ${JSON.stringify(v)}`);
    }
    ext.volume = v;
  }
  if (stream !== undefined) ext.stream = flag('stream', stream);
  if (return_timestamps !== undefined) {
    if (route !== 'captioned') {
      throw bad(
        'return_timestamps',
        'is a field of POST /dev/captioned_speech, not of this route',
        'unknown_parameter',
      );
    }
    ext.timestamps = flag('return_timestamps', return_timestamps);
  }
  // Refused: the text front end is fixed here, and nothing is kept on disk to download.
  if (normalization_options !== undefined && normalization_options !== null) {
    throw bad(
      'normalization_options',
      "is not supported: this server's text normalisation cannot be switched off or tuned (leave the field out; spell the text as it should be read, or use SSML <say-as> or <sub>)",
      'unsupported_value',
    );
  }
  if (return_download_link !== undefined && return_download_link !== false) {
    throw bad(
      'return_download_link',
      'is not supported: this server keeps no audio files to download (leave it out or false; the audio is in the response)',
      'unsupported_value',
    );
  }
  if (download_format !== undefined && download_format !== null) {
    throw bad(
      'download_format',
      'is not supported: this server keeps no audio files to download (leave it out; use response_format)',
      'unsupported_value',
    );
  }
  if (route === 'captioned') {
    rest.model ??= 'kokoro';
    rest.voice ??= defaultVoice;
  }
  return { rest, ext };
}
