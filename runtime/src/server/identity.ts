// Who is calling: the user of the bearer token AgentCore forwards (its JWT authorizer verified the
// token; the agent only decodes the claims, with jose's decodeJwt), from the `Authorization` header
// on POST /invocations and on the /ws upgrade, or from the WebSocket subprotocol pair
// `base64UrlBearerAuthorization.<base64url token>, base64UrlBearerAuthorization` on /ws. No
// Authorization and no such subprotocol: an anonymous caller (IAM callers, local use), served as
// before. Why the agent must never be reached without AgentCore in front, and what is inferred:
// docs/design/identity-and-sessions.md.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { decodeJwt } from 'jose';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { RequestError } from './errors.ts';

/** The subprotocol that marks a bearer token in the WebSocket handshake, and the one the server answers. */
export const BEARER_SUBPROTOCOL = 'base64UrlBearerAuthorization';
const TOKEN_PREFIX = `${BEARER_SUBPROTOCOL}.`;

/** A signed-in user: the token's issuer and subject, and the key sessions are bound and stored under. */
export interface CallerIdentity {
  issuer: string;
  subject: string;
  /** SHA-256 (hex) of issuer and subject: never the raw subject in a store key or a log line. */
  key: string;
}

/** The key of issuer + subject (hex SHA-256; a NUL between them so that no pair collides). */
export function userKeyOf(issuer: string, subject: string): string {
  return createHash('sha256').update(`${issuer}\u0000${subject}`).digest('hex');
}

const unauthorized = (message: string) => new RequestError(401, 'unauthorized', message);

/** The claims of a bearer token, as a caller identity; 401 `unauthorized` when it is not a JWT with a `sub`. */
export function identityOfToken(token: string, where: string): CallerIdentity {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(token);
  } catch (error) {
    throw unauthorized(`${where}: not a JWT (${errorMessage(error)})`);
  }
  if (typeof claims.sub !== 'string' || claims.sub === '')
    throw unauthorized(`${where}: the token has no "sub" claim (the user it was issued to)`);
  if (claims.iss !== undefined && typeof claims.iss !== 'string')
    throw unauthorized(`${where}: the token's "iss" claim is not a string`);
  const issuer = claims.iss ?? '';
  return { issuer, subject: claims.sub, key: userKeyOf(issuer, claims.sub) };
}

/** The bearer token of an Authorization header; 401 when the header is there but is not `Bearer <token>`. */
function headerToken(req: IncomingMessage): string | undefined {
  const value = req.headers.authorization;
  if (value === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(value);
  if (!match) throw unauthorized('Authorization: must be "Bearer <JWT>"');
  return match[1]!;
}

/** The offered subprotocols, in order (Sec-WebSocket-Protocol is a comma-separated list). */
export function offeredSubprotocols(req: IncomingMessage): string[] {
  const value = req.headers['sec-websocket-protocol'];
  if (value === undefined) return [];
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** The token of the subprotocol pair; 401 when the pair is there but malformed. */
function subprotocolToken(req: IncomingMessage): string | undefined {
  const offered = offeredSubprotocols(req);
  const carriers = offered.filter((p) => p.startsWith(TOKEN_PREFIX));
  if (carriers.length === 0) return undefined;
  if (carriers.length > 1) throw unauthorized('Sec-WebSocket-Protocol: more than one bearer token');
  if (!offered.includes(BEARER_SUBPROTOCOL))
    throw unauthorized(`Sec-WebSocket-Protocol: a bearer token needs the ${BEARER_SUBPROTOCOL} subprotocol beside it`);
  const encoded = carriers[0]!.slice(TOKEN_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(encoded))
    throw unauthorized(`Sec-WebSocket-Protocol: the token after ${TOKEN_PREFIX} is not base64url`);
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

/**
 * The caller of a request: undefined when it carries no token (anonymous, as before). On the
 * WebSocket upgrade (`upgrade`), the subprotocol pair counts too; with both, they must name the
 * same user. Throws RequestError 401 `unauthorized` naming what is wrong.
 */
export function identityOf(req: IncomingMessage, upgrade = false): CallerIdentity | undefined {
  const fromHeader = headerToken(req);
  const header = fromHeader === undefined ? undefined : identityOfToken(fromHeader, 'Authorization');
  if (!upgrade) return header;
  const fromProtocol = subprotocolToken(req);
  const protocol = fromProtocol === undefined ? undefined : identityOfToken(fromProtocol, 'Sec-WebSocket-Protocol');
  if (header && protocol && header.key !== protocol.key)
    throw unauthorized('Authorization and Sec-WebSocket-Protocol carry tokens of different users');
  if (!header && !protocol && offeredSubprotocols(req).includes(BEARER_SUBPROTOCOL))
    throw unauthorized(`Sec-WebSocket-Protocol: ${BEARER_SUBPROTOCOL} offered without a token`);
  return header ?? protocol;
}

/** The subprotocol the server answers: the sentinel when offered, else the first offered (ws's own default). */
export function chooseSubprotocol(protocols: Set<string>): string | false {
  if (protocols.has(BEARER_SUBPROTOCOL)) return BEARER_SUBPROTOCOL;
  for (const p of protocols) if (!p.startsWith(TOKEN_PREFIX)) return p;
  return false;
}
