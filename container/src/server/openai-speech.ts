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
import { createStreamEncoder, type StreamEncoder } from '../audio/stream-encoder.ts';
import { asSpeechError, SpeechError } from '../tts/errors.ts';
import { OpenAIError, sendOpenAIError } from './openai-error.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { UtteranceStream } from '../tts/utterance-stream.ts';
import { AudioResponse } from './audio-response.ts';
import { clientGone, sentStatus } from './invocations.ts';
import type { SpokenText } from '../tts/spoken-text.ts';
import { looksLikeSsml } from '../pronunciation/ssml.ts';

/** Model names accepted: ours, and OpenAI's TTS models, so that existing clients work unchanged. */
export const OPENAI_MODELS = ['kokoro', 'tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'] as const;
/** OpenAI's formats we make, its default first; aac has no maintained npm encoder (docs/design/openai-formats.md). */
export const OPENAI_FORMATS = ['mp3', 'opus', 'flac', 'wav', 'pcm'] as const;
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

function parseRequest(service: SpeechService, body: Buffer) {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new OpenAIError(400, `the body is not valid JSON: ${errorMessage(error)}`, null, 'invalid_json');
  }
  const parsed = requestSchema.safeParse(json);
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
  if (r.stream_format !== undefined && r.stream_format !== 'audio') {
    throw new OpenAIError(
      400,
      `stream_format ${JSON.stringify(r.stream_format)} is not supported; the audio is always streamed as it is made (stream_format "audio")`,
      'stream_format',
      'unsupported_value',
    );
  }
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
  return { input: r.input, voice, speed, format: format as (typeof OPENAI_FORMATS)[number] };
}

/** The input as spoken: SSML when its root is <speak>, else text (inline syntax and lexicon either way). */
function spokenInput(service: SpeechService, input: string): SpokenText {
  try {
    return service.spoken(input, looksLikeSsml(input));
  } catch (error) {
    throw new OpenAIError(400, asSpeechError(error).message, 'input', 'invalid_value');
  }
}

/** POST /v1/audio/speech. */
export async function handleOpenAISpeech(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
): Promise<void> {
  const started = performance.now();
  let stream: UtteranceStream | undefined;
  let encoder: StreamEncoder | undefined;
  const logLine: Record<string, unknown> = { route: 'POST /v1/audio/speech' };
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
    const request = parseRequest(service, body);
    Object.assign(logLine, { chars: request.input.length, voice: request.voice, format: request.format });
    try {
      service.checkSpoken(request.voice);
    } catch (error) {
      throw new OpenAIError(400, errorMessage(error), 'voice', 'unsupported_language');
    }
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
      sample_rate: 24000,
    });
    const format = request.format;
    // wav and pcm are the utterance's own bytes; the others are encoded in slices as they come.
    const e = format === 'wav' || format === 'pcm' ? undefined : await createStreamEncoder(format, 24000);
    encoder = e;
    const out = new AudioResponse(res, {
      encoder: e,
      maxBufferedBytes: service.config.maxWsBufferedBytes,
      onStalled: (bufferedBytes) => {
        stream?.close();
        service.log.warn({ ...logLine, bufferedBytes }, 'client is not reading its audio; dropping the request');
        finish({ stalled: true, bufferedBytes });
      },
      // After the headers went out, an encoder failure can only abort the body (as a model failure does).
      onEncodeError: (error) => {
        stream?.close();
        service.log.error({ err: error, format }, 'encoding failed; the response is aborted');
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
        res.writeHead(200, { ...headers, 'cache-control': 'no-store' });
      },
      audio: (_u, bytes) => out.write(bytes),
      end: () => {
        s.close();
        void out.end().then(() => finish());
      },
      fail: (_u, error) => {
        s.close();
        out.close();
        // The caller's mistakes (a refused language, unspeakable text) are 4xx, never a retried 5xx.
        const type = error.status >= 500 ? 'server_error' : 'invalid_request_error';
        sendOpenAIError(res, new OpenAIError(error.status, error.message, null, error.code, type));
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
    const e =
      error instanceof OpenAIError
        ? error
        : ((se: SpeechError) =>
            new OpenAIError(
              se.status,
              se.message,
              null,
              se.code,
              se.status >= 500 ? 'server_error' : 'invalid_request_error',
            ))(asSpeechError(error));
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
