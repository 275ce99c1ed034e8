// POST /api/phonemize: the local stack's relay to its Kokoro container's POST /v1/phonemize, so
// that `npm run say -- --phonemes "text"` reaches the container through the page's one well-known
// port (the container listens on a free port of its own). The answer, error or not, is passed on.
import type http from 'node:http';
import { readBody } from '@kokoro-speech/protocol/server';
import { KokoroError } from '@kokoro-speech/protocol/errors';
import { sendJson } from './send-json.ts';

const MAX_BODY_BYTES = 64 * 1024;

export async function relayPhonemize(
  containerUrl: string | undefined,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (req.method !== 'POST') return sendJson(res, 405, { error: { code: 'method', message: 'use POST' } });
  if (!containerUrl) {
    return sendJson(res, 404, {
      error: {
        code: 'not_found',
        message: 'this server runs no Kokoro container (npm start with a remote agent); use say --container URL',
      },
    });
  }
  const body = await readBody(
    req,
    MAX_BODY_BYTES,
    (n) =>
      new KokoroError('invalid_message', `the body is ${n} bytes; the limit is ${MAX_BODY_BYTES}`, { status: 413 }),
    res,
  );
  const answer = await fetch(new URL('/v1/phonemize', containerUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new Uint8Array(body),
  });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}
