// The optional API key of a self-hosted container (KOKORO_API_KEY): every route but GET /ping asks
// for `Authorization: Bearer <key>` (RFC 6750, section 2.1), which is what the official `openai`
// client sends from its apiKey. SageMaker sends no such header and needs none: its endpoint is
// reached through IAM (docs/design/output-bounds-and-api-key.md, "The API key").
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import { kokoroErrorBody, sendJsonError } from '@kokoro-speech/protocol/server';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Checks a request's bearer token against the key, in constant time; null when no key is set. */
export function bearerCheck(key: string | undefined): ((req: IncomingMessage) => boolean) | null {
  if (key === undefined) return null;
  // Both sides hashed to 32 bytes: timingSafeEqual needs equal lengths, and the time taken then
  // says nothing about the key's length or its first differing byte.
  const expected = digest(key);
  return (req) => {
    const m = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
    return timingSafeEqual(digest(m?.[1] ?? ''), expected) && m !== null;
  };
}

const CHALLENGE = { 'www-authenticate': 'Bearer realm="kokoro"' };
const MESSAGE =
  'missing or wrong API key: send "Authorization: Bearer <key>" with the key this server was given (KOKORO_API_KEY)';

/** 401 in OpenAI's error shape (what its client reads as an AuthenticationError, and does not retry). */
export function sendOpenAIUnauthorized(res: ServerResponse): void {
  const body = { error: { message: MESSAGE, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
  sendJsonError(res, 401, body, CHALLENGE);
}

/** 401 in the container protocol's HTTP error shape ({"error":{"code","message"}}). */
export function sendUnauthorized(res: ServerResponse): void {
  sendJsonError(res, 401, kokoroErrorBody('unauthorized', MESSAGE), CHALLENGE);
}

/** Refuses a WebSocket upgrade with 401 before the handshake. */
export function refuseUpgradeUnauthorized(socket: Duplex): void {
  refuseUpgrade(socket, 401, {
    headers: { 'content-type': 'application/json', ...CHALLENGE },
    body: JSON.stringify({ error: { code: 'unauthorized', message: MESSAGE } }),
  });
}
