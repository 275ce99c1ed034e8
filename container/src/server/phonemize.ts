// POST /v1/phonemize: the phonemes and token ids a text would be spoken with, after the lexicon,
// misaki's inline syntax and SSML, piece by piece as the model would get them; for finding and
// fixing a pronunciation (container/README.md). Shaped after Kokoro-FastAPI's /dev/phonemize
// ({text, language} -> {phonemes, tokens}), with the pieces added.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { phonemizeRequestSchema, type PhonemizeResponse } from '@kokoro-speech/protocol';
import { LANGUAGES, voiceLanguage, type LanguageCode } from '../engine/languages.ts';
import { SpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';
import { readJsonRequest } from './json-request.ts';

export async function handlePhonemize(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
): Promise<void> {
  const request = await readJsonRequest(req, res, service, phonemizeRequestSchema);
  if (request.voice !== undefined && request.language !== undefined) {
    throw new SpeechError('invalid_message', 'give voice or language, not both');
  }
  if (request.voice !== undefined) service.checkVoice(request.voice); // a voice or a blend
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
