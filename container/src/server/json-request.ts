// A JSON request body read the way every POST route of the container reads one: size-limited
// (MAX_WS_MESSAGE_BYTES, the limit of one protocol v1 message), parsed, checked against its schema;
// each problem a 400 SpeechError that names it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { readBody } from '@kokoro-speech/protocol/server';
import { SpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';

export async function readJsonRequest<S extends z.ZodType>(
  req: IncomingMessage,
  res: ServerResponse,
  service: SpeechService,
  schema: S,
): Promise<z.output<S>> {
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
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    throw new SpeechError('invalid_message', `invalid request: ${issues}`);
  }
  return parsed.data;
}
