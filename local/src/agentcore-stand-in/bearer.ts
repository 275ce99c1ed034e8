// Where a caller's bearer token is on an AgentCore request: the Authorization header (HTTP, and
// WebSocket clients that can set headers), or, from a browser, the WebSocket subprotocol pair
// `base64UrlBearerAuthorization.<base64url(token)>, base64UrlBearerAuthorization`
// (docs/design/sign-in.md#what-agentcore-takes). Each malformed form is refused with what is wrong.

/** The sentinel subprotocol; the server answers the handshake with it as the chosen protocol. */
export const WS_BEARER_PROTOCOL = 'base64UrlBearerAuthorization';
const PREFIX = `${WS_BEARER_PROTOCOL}.`;
/** A JWS compact serialization's shape: three base64url parts (the signature is checked later). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type Found = { token: string } | { problem: string } | { none: true };

/** The subprotocols a caller offers to send `token` (what the page does in the browser). */
export function bearerSubprotocols(token: string): [string, string] {
  return [`${PREFIX}${Buffer.from(token, 'utf8').toString('base64url')}`, WS_BEARER_PROTOCOL];
}

/** The token of an `Authorization` header, if it is one; SigV4 is told apart by its scheme. */
export function bearerOfHeader(value: string | undefined): Found | { sigv4: true } {
  if (value === undefined || value.trim() === '') return { none: true };
  if (/^AWS4-HMAC-SHA256\s/.test(value)) return { sigv4: true };
  const m = /^Bearer +(\S+)\s*$/i.exec(value);
  if (!m) return { problem: 'the Authorization header is not "Bearer <token>"' };
  return shaped(m[1]!);
}

/** The token of a `Sec-WebSocket-Protocol` header, if it offers the pair. */
export function bearerOfSubprotocols(header: string | undefined): Found {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const tokens = offered.filter((p) => p.startsWith(PREFIX));
  const sentinel = offered.includes(WS_BEARER_PROTOCOL);
  if (tokens.length === 0 && !sentinel) return { none: true };
  if (tokens.length === 0)
    return { problem: `the subprotocol ${WS_BEARER_PROTOCOL} came without a ${PREFIX}<token> one before it` };
  if (tokens.length > 1) return { problem: `more than one ${PREFIX}<token> subprotocol` };
  if (!sentinel) return { problem: `the ${PREFIX}<token> subprotocol came without ${WS_BEARER_PROTOCOL} after it` };
  const encoded = tokens[0]!.slice(PREFIX.length);
  if (!BASE64URL.test(encoded)) return { problem: `the ${PREFIX}<token> subprotocol is not base64url` };
  return shaped(Buffer.from(encoded, 'base64url').toString('utf8'));
}

function shaped(token: string): Found {
  return JWT_SHAPE.test(token) ? { token } : { problem: 'the bearer token is not a JWT (three base64url parts)' };
}
