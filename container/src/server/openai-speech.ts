// The OpenAI-compatible speech API, for running the container yourself: POST /v1/audio/speech
// (streamed as it is synthesised), GET /v1/models, GET /v1/audio/voices; errors in OpenAI's shape
// {"error":{"message","type","param","code"}}. SageMaker forwards only /invocations and the
// bidirectional stream, so on an endpoint these routes are not reachable (container/README.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { isVoiceBlend, MAX_SPEED, MIN_SPEED } from '@kokoro-speech/protocol';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { readBody } from '@kokoro-speech/protocol/server';
import { audioHeaders } from '../audio/index.ts';
import type { StreamEncoder } from '../audio/stream-encoder.ts';
import { asSpeechError, SpeechError } from '../tts/errors.ts';
import { OpenAIError, sendOpenAIError } from './openai-error.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { UtteranceStream } from '../tts/utterance-stream.ts';
import { AudioResponse } from './audio-response.ts';
import { clientGone, sentStatus } from './invocations.ts';
import type { SpokenText } from '../tts/spoken-text.ts';
import { looksLikeSsml } from '../pronunciation/ssml.ts';
import { takeFastApiExtensions, type DropInRoute } from './fastapi-extensions.ts';
import { createSpeechEncoder, formatRate, G711_FORMATS, OPENAI_AUDIO_FORMATS } from './speech-encoder.ts';
import { speechFrames, wantsSse } from './speech-body.ts';
import { CAPTIONED_SPEECH_PATH } from './captioned-speech.ts';

/** Model names accepted: ours, and OpenAI's TTS models, so that existing clients work unchanged. */
export const OPENAI_MODELS = ['kokoro', 'tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;
/** OpenAI's formats we make (its default first), then the G.711 extensions (speech-encoder.ts). */
export const OPENAI_FORMATS = [...OPENAI_AUDIO_FORMATS, ...G711_FORMATS] as const;
const OPENAI_ALL_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];
/** OpenAI's input limit. */
export const OPENAI_MAX_INPUT = 4096;

const requestSchema = z
  .object({
    model: z.string(),
    input: z.string(),
    voice: z.union([z.string(), z.object({ id: z.string() })]),
    response_format: z.string().optional(),
    speed: z.number().optional(),
    /** gpt-4o-mini-tts steering; Kokoro has no such control: accepted and ignored. */
    instructions: z.string().optional(),
    stream_format: z.string().optional(),
  })
  .strict();

/** A Kokoro voice id, or OpenAI's name of one ("nova" is af_nova when exactly one voice ends so). */
function resolveVoice(service: SpeechService, voice: string): string {
  if (service.engine.hasVoice(voice)) return voice;
  if (isVoiceBlend(voice)) {
    try {
      service.checkVoice(voice);
    } catch (error) {
      throw new OpenAIError(400, errorMessage(error), 'voice', 'invalid_value');
    }
  }
  const named = service.engine.voices.filter((id) => id.endsWith(`_${voice}`));
  if (named.length === 1) return named[0]!;
  throw new OpenAIError(
    400,
    `unknown voice ${JSON.stringify(voice)}; available: ${service.engine.voices.join(', ')} (see GET /v1/audio/voices)`,
    'voice',
    'invalid_value',
  );
}

function parseRequest(service: SpeechService, body: Buffer, route: DropInRoute) {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new OpenAIError(400, `the body is not valid JSON: ${errorMessage(error)}`, null, 'invalid_json');
  }
  const { rest, ext } = takeFastApiExtensions(json, route, service.config.defaultVoice);
  const parsed = requestSchema.safeParse(rest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.') || null;
    throw new OpenAIError(400, `${param ?? 'body'}: ${issue.message}`, param, 'invalid_request');
  }
  const r = parsed.data;
  if (!(OPENAI_MODELS as readonly string[]).includes(r.model)) {
    throw new OpenAIError(
      400,
      `the model ${JSON.stringify(r.model)} does not exist here; use one of ${OPENAI_MODELS.join(', ')} (all of them are Kokoro-82M)`,
      'model',
      'model_not_found',
    );
  }
  if (r.input.trim() === '') throw new OpenAIError(400, 'input is empty', 'input', 'invalid_value');
  if (r.input.length > Math.min(OPENAI_MAX_INPUT, service.config.maxTextChars)) {
    throw new OpenAIError(
      400,
      `input has ${r.input.length} characters; the maximum is ${Math.min(OPENAI_MAX_INPUT, service.config.maxTextChars)}`,
      'input',
      'string_above_max_length',
    );
  }
  // OpenAI's default (https://platform.openai.com/docs/api-reference/audio/createSpeech).
  const format = r.response_format ?? 'mp3';
  if (!(OPENAI_FORMATS as readonly string[]).includes(format)) {
    const known = OPENAI_ALL_FORMATS.includes(format) ? 'is not supported by this server' : 'is not a format';
    throw new OpenAIError(
      400,
      `response_format ${JSON.stringify(format)} ${known}; supported: ${OPENAI_FORMATS.join(', ')}`,
      'response_format',
      'unsupported_value',
    );
  }
  const sse = wantsSse(r.stream_format, route, ext.stream);
  const speed = r.speed ?? 1;
  if (speed < MIN_SPEED || speed > MAX_SPEED) {
    throw new OpenAIError(
      400,
      `speed ${speed} is out of range: Kokoro speaks at ${MIN_SPEED} to ${MAX_SPEED} (OpenAI allows 0.25 to 4.0)`,
      'speed',
      'invalid_value',
    );
  }
  const voice = resolveVoice(service, typeof r.voice === 'string' ? r.voice : r.voice.id);
  return { input: r.input, voice, speed, format: format as (typeof OPENAI_FORMATS)[number], sse, ext };
}

/** The input as spoken: SSML when its root is <speak>, else text (inline syntax and lexicon either way). */
function spokenInput(service: SpeechService, input: string): SpokenText {
  try {
    return service.spoken(input, looksLikeSsml(input));
  } catch (error) {
    throw new OpenAIError(400, asSpeechError(error).message, 'input', 'invalid_value');
  }
}

/** 400 unsupported_language: lang_code's language is checked as it is read, else the voice's. */
function checkLanguage(service: SpeechService, request: ReturnType<typeof parseRequest>): void {
  if (request.ext.language) return; // the text is read in lang_code's language, whatever the voice's
  try {
    service.checkSpoken(request.voice);
  } catch (error) {
    throw new OpenAIError(400, errorMessage(error), 'voice', 'unsupported_language');
  }
}

/** An error of the model or the text, in OpenAI's shape: the caller's mistakes 4xx, never a retried 5xx. */
function openAIErrorOf(error: unknown): OpenAIError {
  if (error instanceof OpenAIError) return error;
  const e = error instanceof SpeechError ? error : asSpeechError(error);
  return new OpenAIError(e.status, e.message, null, e.code, e.status >= 500 ? 'server_error' : 'invalid_request_error');
}

/** POST /v1/audio/speech, or Kokoro-FastAPI's POST /dev/captioned_speech (`route` "captioned"). */
export async function handleOpenAISpeech(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
  route: DropInRoute = 'speech',
): Promise<void> {
  const started = performance.now();
  let stream: UtteranceStream | undefined;
  let encoder: StreamEncoder | undefined;
  const path = route === 'captioned' ? CAPTIONED_SPEECH_PATH : '/v1/audio/speech';
  const logLine: Record<string, unknown> = { route: `POST ${path}` };
  let logged = false;
  // One line per request, refusals included, with the status actually sent (null: none was).
  const finish = (extra: Record<string, unknown> = {}) => {
    if (logged) return;
    logged = true;
    const status = sentStatus(res, extra);
    service.log.info({ ...logLine, status, ms: Math.round(performance.now() - started), ...extra }, 'request done');
  };
  try {
    const limit = service.config.maxWsMessageBytes;
    const body = await readBody(
      req,
      limit,
      (n) => new OpenAIError(400, `request body is ${n} bytes; the limit is ${limit}`, null, 'request_too_large'),
      res,
    );
    const request = parseRequest(service, body, route);
    Object.assign(logLine, { chars: request.input.length, voice: request.voice, format: request.format });
    checkLanguage(service, request);
    const spoken = spokenInput(service, request.input);
    try {
      service.admit();
    } catch (error) {
      const e = asSpeechError(error);
      throw OpenAIError.overloaded(e.message, e.retryAfterS);
    }
    const settings = service.applySettings(service.defaultSettings(), {
      voice: request.voice,
      speed: request.speed,
      format: request.format === 'wav' ? 'wav' : 'pcm_s16le',
      sample_rate: formatRate(request.format),
    });
    if (request.ext.language) settings.language = request.ext.language;
    const format = request.format;
    // wav and pcm at volume 1 are the utterance's own bytes; the others are encoded in slices as they come.
    const e = await createSpeechEncoder(format, request.ext.volume);
    encoder = e;
    // Every body shape (audio, SSE events, captioned JSON) is written at the reader's pace.
    const frames = speechFrames(route, request);
    const fail = (error: OpenAIError) => out.fail(error, () => sendOpenAIError(res, error));
    const out: AudioResponse = new AudioResponse(res, {
      encoder: e,
      frames,
      maxBufferedBytes: service.config.maxWsBufferedBytes,
      onStalled: (bufferedBytes) => {
        stream?.close();
        service.log.warn({ ...logLine, bufferedBytes }, 'client is not reading its audio; dropping the request');
        finish({ stalled: true, bufferedBytes });
      },
      // After the headers went out, an encoder failure ends the body as a model failure does.
      onEncodeError: (error) => {
        stream?.close();
        service.log.error({ err: error, format }, 'encoding failed; the response is aborted');
        fail(new OpenAIError(500, `encoding failed: ${errorMessage(error)}`, null, 'internal', 'server_error'));
        finish({ code: 'internal', error: errorMessage(error) });
      },
    });
    const s = new UtteranceStream(service, {
      start: (u) => {
        const headers = e
          ? { 'content-type': e.contentType }
          : format === 'pcm'
            ? { ...audioHeaders(u.output), 'content-type': 'audio/pcm' }
            : audioHeaders(u.output);
        out.start({ ...headers, 'cache-control': 'no-store' });
      },
      audio: (_u, bytes) => out.write(bytes),
      ...(frames.words && { words: (_u, words) => out.words(words) }),
      end: () => {
        s.close();
        void out.end().then(() => finish());
      },
      fail: (_u, error) => {
        s.close();
        fail(openAIErrorOf(error));
        finish({ code: error.code, error: error.message });
      },
    });
    stream = s;
    res.on('close', () => {
      if (!res.writableFinished && s.pending > 0) {
        s.close();
        out.close();
        finish({ aborted: true }); // the caller's choice: info, not an error
      }
    });
    s.push(spoken, undefined, settings);
  } catch (error) {
    stream?.close();
    encoder?.close();
    if (clientGone(req, res)) return finish({ aborted: true });
    const e = openAIErrorOf(error);
    sendOpenAIError(res, e);
    finish({ code: e.code, error: e.message });
  }
}

/** GET /v1/models: every name accepted, all of them Kokoro-82M. */
export function handleOpenAIModels(res: ServerResponse, startedAt: number): void {
  const created = Math.floor(startedAt / 1000);
  const body = {
    object: 'list',
    data: OPENAI_MODELS.map((id) => ({ id, object: 'model', created, owned_by: 'kokoro-speech' })),
  };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** GET /v1/audio/voices: what each voice is, the default, and any voice file refused at start-up. */
export function handleVoiceList(res: ServerResponse, service: SpeechService): void {
  const { engine } = service;
  const voices = engine.voiceInfo ?? engine.voices.map((id) => ({ id, language: 'en-us', source: 'model-dir' }));
  const body = { voices, default: service.config.defaultVoice, refused: engine.refusedVoices ?? [] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
