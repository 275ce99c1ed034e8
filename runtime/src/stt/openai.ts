// Any OpenAI-compatible transcription server (POST {baseURL}/audio/transcriptions: OpenAI,
// speaches, whisper.cpp's server, vLLM) through the official `openai` client. An utterance
// provider: each utterance the VAD cut is sent as a WAV file, its `text` is the final.
import OpenAI, { toFile } from 'openai';
import { TURN_LANGUAGES } from '@kokoro-speech/protocol';
import { SttError, systemCode, UNREACHABLE_CODES } from './errors.ts';
import { openUtteranceStream, type UtteranceLimits } from './utterance-stream.ts';
import { pcmToWav } from './wav.ts';
import { STT_SAMPLE_RATE, type SpeechToText } from './types.ts';

export interface OpenAISttOptions extends UtteranceLimits {
  /** The API root, e.g. http://127.0.0.1:8000/v1 (the client appends /audio/transcriptions). */
  baseURL: string;
  model: string;
  apiKey?: string;
  /** Per request, in ms (default 15 s: an utterance of up to 30 s takes well under that on a GPU). */
  timeoutMs?: number;
}

export const DEFAULT_OPENAI_STT_TIMEOUT_MS = 15_000;

export function createOpenAISpeechToText(options: OpenAISttOptions): SpeechToText {
  if (!/^https?:\/\//.test(options.baseURL) || !URL.canParse(options.baseURL))
    throw new TypeError(`STT_OPENAI_BASE_URL is not an http(s) URL: ${options.baseURL}`);
  if (!options.model) throw new TypeError('STT_OPENAI_MODEL must not be empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_STT_TIMEOUT_MS;
  const where = `POST ${options.baseURL.replace(/\/+$/, '')}/audio/transcriptions`;
  const client = new OpenAI({
    baseURL: options.baseURL,
    // Local servers take no key; the client refuses to start without one.
    apiKey: options.apiKey || 'not-needed',
    // A backstop only: the request's own deadline (below) decides, so a timeout is always named one.
    timeout: timeoutMs + 5_000,
    // No retries: a late transcript is worse than a clear error the session can act on.
    maxRetries: 0,
  });
  return {
    name: 'openai',
    languages: TURN_LANGUAGES,
    needsVadCuts: true,
    open: (stream) =>
      openUtteranceStream(
        'openai',
        async (pcm, { language, signal }) => {
          const deadline = AbortSignal.timeout(timeoutMs);
          try {
            const file = await toFile(pcmToWav(pcm, STT_SAMPLE_RATE), 'utterance.wav', { type: 'audio/wav' });
            const answer = await client.audio.transcriptions.create(
              { file, model: options.model, language, response_format: 'json' },
              { signal: AbortSignal.any([signal, deadline]) },
            );
            if (typeof answer?.text !== 'string')
              throw new SttError('stt_failed', `${where} answered without a "text" field`, { retryable: false });
            return answer.text;
          } catch (error) {
            if (deadline.aborted && !signal.aborted)
              throw new SttError('stt_timeout', `${where} did not answer within ${timeoutMs} ms`, { cause: error });
            throw openAISttError(error, where);
          }
        },
        stream,
        options,
      ),
    close: async () => {},
  };
}

/** The client's errors as stt_* codes: 429 throttled, 5xx and no connection unavailable, etc. */
export function openAISttError(error: unknown, where: string): SttError {
  if (error instanceof SttError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new SttError('stt_timeout', `${where} did not answer in time`, { cause: error });
  if (error instanceof OpenAI.APIUserAbortError)
    return new SttError('stt_failed', `${where} was cancelled`, { retryable: false, cause: error });
  if (error instanceof OpenAI.APIConnectionError) {
    const code = systemCode(error);
    const why = code && UNREACHABLE_CODES.has(code) ? code : error.message;
    return new SttError('stt_unavailable', `${where} could not be reached (${why})`, { cause: error });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const said = `${where} answered ${error.status}: ${error.message}`;
    if (error.status === 429) return new SttError('stt_throttled', said, { cause: error });
    if (error.status === 408) return new SttError('stt_timeout', said, { cause: error });
    if (error.status >= 500) return new SttError('stt_unavailable', said, { cause: error });
    return new SttError('stt_refused', said, { retryable: false, cause: error });
  }
  const why = error instanceof Error ? error.message : String(error);
  return new SttError('stt_failed', `${where}: ${why}`, { retryable: false, cause: error });
}
