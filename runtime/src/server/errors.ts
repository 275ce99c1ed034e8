// Errors the agent server answers with before a turn starts: one class carrying the HTTP status
// and a stable code (the table is in runtime/README.md); one function writes them as JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { kokoroErrorBody, readBody, sendJsonError } from '@kokoro-speech/protocol/server';
import { KokoroError } from '@kokoro-speech/protocol/errors';

export type RequestErrorCode =
  | 'invalid_request'
  | 'unsupported_language'
  | 'payload_too_large'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'busy'
  | 'tts_unavailable'
  | 'stt_unavailable'
  | 'internal';

export class RequestError extends KokoroError<RequestErrorCode> {
  declare readonly status: number;
  constructor(status: number, code: RequestErrorCode, message: string) {
    super(code, message, { status, retryable: code === 'busy' || code === 'tts_unavailable' });
  }
}

/** Answers `error` as JSON; returns the status sent (0: none, the response had begun: it is cut). */
export function sendError(res: ServerResponse, error: unknown, headers: Record<string, string> = {}): number {
  const known = error instanceof RequestError ? error : new RequestError(500, 'internal', 'internal error');
  const sent = sendJsonError(res, known.status, kokoroErrorBody(known.code, known.message), {
    // RFC 6750: a 401 names the scheme it wants.
    ...(known.status === 401 ? { 'www-authenticate': 'Bearer error="invalid_token"' } : {}),
    ...headers,
  });
  return sent ? known.status : 0;
}

/** Reads a request body up to `limit` bytes; a bigger one is a 413 without reading the rest, and
 *  its connection is closed once the 413 is written. */
export async function readRequestBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<string> {
  const tooLarge = (n: number) =>
    new RequestError(413, 'payload_too_large', `request body is over the limit of ${limit} bytes (${n} bytes)`);
  return (await readBody(req, limit, tooLarge, res)).toString('utf8');
}
