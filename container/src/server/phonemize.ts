// POST /v1/phonemize: the phonemes and token ids a text would be spoken with, after the lexicon,
// misaki's inline syntax and SSML, piece by piece as the model would get them; for finding and
// fixing a pronunciation (container/README.md). Shaped after Kokoro-FastAPI's /dev/phonemize
// ({text, language} -> {phonemes, tokens}), with the pieces added.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { phonemizeRequestSchema, type PhonemizeResponse } from '@kokoro-speech/protocol';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { readBody } from '@kokoro-speech/protocol/server';
import { LANGUAGES, voiceLanguage, type LanguageCode } from '../engine/languages.ts';
import { SpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';

export async function handlePhonemize(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
): Promise<void> {
  const limit = service.config.maxWsMessageBytes;
  const body = await readBody(
    req,
    limit,
    (n) => new SpeechError('text_too_long', `request body is ${n} bytes; the limit is ${limit} (MAX_WS_MESSAGE_BYTES)`),
    res,
  );
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new SpeechError('invalid_message', `malformed JSON: ${errorMessage(error)}`);
  }
  const parsed = phonemizeRequestSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    throw new SpeechError('invalid_message', `invalid request: ${issues}`);
  }
  const request = parsed.data;
  if (request.voice !== undefined && request.language !== undefined) {
    throw new SpeechError('invalid_message', 'give voice or language, not both');
  }
  if (request.voice !== undefined && !service.engine.hasVoice(request.voice)) {
    throw new SpeechError(
      'unknown_voice',
      `unknown voice "${request.voice}"; available: ${service.engine.voices.join(', ')}`,
    );
  }
  if (request.language !== undefined && !(request.language in LANGUAGES)) {
    throw new SpeechError(
      'invalid_message',
      `unknown language "${request.language}"; Kokoro's codes: ${Object.keys(LANGUAGES).join(', ')}`,
    );
  }
  service.checkText(request.text);
  const spoken = service.spoken(request.text, request.ssml ?? false);
  const voice = request.voice ?? service.config.defaultVoice;
  // Only a voice's first letter picks the G2P (engine/languages.ts): a language code stands for any of its voices.
  const language: LanguageCode = (request.language as LanguageCode | undefined) ?? voiceLanguage(voice);
  const pieces = await service.engine.prepare(spoken.plain ? spoken.script.text : spoken.script, `${language}f_any`);
  const answer: PhonemizeResponse = {
    phonemes: pieces
      .filter((p) => p.pauseMs === undefined)
      .map((p) => p.phonemes)
      .join(' '),
    tokens: pieces.flatMap((p) => p.tokenIds),
    pieces: pieces.map((p) => ({
      text: p.text,
      phonemes: p.phonemes,
      tokens: p.tokenIds,
      ...(p.pauseMs !== undefined ? { pause_ms: p.pauseMs } : {}),
      ...(p.rate !== undefined ? { rate: p.rate } : {}),
    })),
    ...(request.language === undefined ? { voice } : {}),
    language: LANGUAGES[language].tag,
  };
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer));
}
