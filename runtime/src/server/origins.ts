// Which browser pages may use the agent server. A request with no Origin header is not from a
// browser page (AgentCore, the say CLI, curl, the local web server's relay) and is always served.
// Browsers send Origin on every cross-origin request and on every WebSocket handshake, so a
// request whose Origin is not on the allow-list (`ALLOWED_ORIGINS`) is refused: otherwise any
// web page the user opens could run turns (spending LLM credit) with a `text/plain` POST, which
// needs no CORS preflight, or a WebSocket, which has no CORS at all. Allowed origins also get the
// CORS headers that let their pages read the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { kokoroErrorBody, sendJsonError } from '@kokoro-speech/protocol/server';

export type OriginAllowList = readonly string[] | '*';

/** The origin of a configured entry (`https://app.example.com`, default ports dropped); throws a
 *  TypeError naming it when it is not an http(s) origin. */
export function normalizeOrigin(entry: string): string {
  const trimmed = entry.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new TypeError(`${JSON.stringify(trimmed)} is not an origin (scheme://host[:port])`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${JSON.stringify(trimmed)} is not an http(s) origin`);
  if (url.pathname !== '/' || url.search || url.hash || url.username)
    throw new TypeError(`${JSON.stringify(trimmed)} is not an origin: give scheme://host[:port] only`);
  return url.origin;
}

export class OriginPolicy {
  readonly #any: boolean;
  readonly #origins: Set<string>;

  constructor(allowed: OriginAllowList = []) {
    this.#any = allowed === '*';
    this.#origins = new Set(allowed === '*' ? [] : allowed.map(normalizeOrigin));
  }

  /** The request's Origin when it is an allowed browser origin; undefined without one. */
  #allowedOrigin(req: IncomingMessage): string | undefined {
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    if (this.#any) return origin;
    let normalized: string | undefined;
    try {
      normalized = new URL(origin).origin;
    } catch {
      normalized = undefined; // "null" (a sandboxed frame, a file: page) or garbage
    }
    return normalized !== undefined && this.#origins.has(normalized) ? origin : undefined;
  }

  /** Why this request is refused, or null when it may go on. */
  refusal(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    if (origin === undefined || this.#allowedOrigin(req) !== undefined) return null;
    return `Origin ${JSON.stringify(origin.slice(0, 200))} may not use this agent: browser pages need their origin in ALLOWED_ORIGINS`;
  }

  /** Adds the CORS headers an allowed page needs to read the answer. */
  corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = this.#allowedOrigin(req);
    return origin === undefined ? {} : { 'access-control-allow-origin': origin, vary: 'origin' };
  }

  /** Answers a CORS preflight (OPTIONS) from an allowed page; a refused one gets 403. */
  preflight(req: IncomingMessage, res: ServerResponse, methods: string): void {
    const why = this.refusal(req);
    if (why || req.headers.origin === undefined) {
      const message = why ?? 'OPTIONS is a CORS preflight and needs an Origin';
      return void sendJsonError(res, 403, kokoroErrorBody('forbidden', message));
    }
    res.writeHead(204, {
      ...this.corsHeaders(req),
      'access-control-allow-methods': methods,
      'access-control-allow-headers': 'authorization, content-type, x-amzn-bedrock-agentcore-runtime-session-id',
      'access-control-max-age': '600',
    });
    res.end();
  }
}
