// AgentCore's inbound JWT authorizer as the stand-in applies it: from the discovery URL, the issuer
// and the JWKS; then for each token its signature (a key of that JWKS), its issuer, its expiry, and
// its `client_id` among the allowed clients and/or its `aud` among the allowed audiences
// (docs/design/sign-in.md#the-authorizer). jose does the JWT work.
import { createRemoteJWKSet, decodeJwt, errors as jose, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { KokoroError, errorMessage } from '@kokoro-speech/protocol/errors';

/** The same settings as the runtime's `customJWTAuthorizer`. */
export interface JwtAuthorizerConfig {
  discoveryUrl: string;
  allowedClients?: readonly string[];
  allowedAudience?: readonly string[];
}

/** A token the authorizer does not accept: 401, with what is wrong with it. */
export class TokenRefused extends KokoroError<'unauthorized'> {
  constructor(message: string) {
    super('unauthorized', message, { status: 401 });
  }
}

export interface JwtAuthorizer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** The token's claims once it passes every check; else TokenRefused. */
  verify(token: string): Promise<JWTPayload>;
}

const DISCOVERY_SUFFIX = '/.well-known/openid-configuration';
/** Asymmetric algorithms only: a JWKS of public keys cannot check an HMAC. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** Reads the discovery document now (as AgentCore does when the authorizer is set up). */
export async function createJwtAuthorizer(config: JwtAuthorizerConfig): Promise<JwtAuthorizer> {
  if (!config.discoveryUrl.endsWith(DISCOVERY_SUFFIX))
    throw new Error(`the discovery URL must end with ${DISCOVERY_SUFFIX}: ${config.discoveryUrl}`);
  if (!config.allowedClients?.length && !config.allowedAudience?.length)
    throw new Error('give the authorizer allowed clients or an allowed audience');
  let metadata: { issuer?: unknown; jwks_uri?: unknown };
  try {
    const res = await fetch(config.discoveryUrl);
    if (!res.ok) throw new Error(`it answered ${res.status}`);
    metadata = (await res.json()) as typeof metadata;
  } catch (err) {
    throw new Error(`cannot read the discovery document ${config.discoveryUrl}: ${errorMessage(err)}`, { cause: err });
  }
  const { issuer, jwks_uri: jwksUri } = metadata;
  if (typeof issuer !== 'string' || typeof jwksUri !== 'string')
    throw new Error(`the discovery document ${config.discoveryUrl} has no issuer or jwks_uri`);
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return { issuer, jwksUri, verify: (token) => verify(token, { ...config, issuer, jwksUri, keys }) };
}

async function verify(
  token: string,
  c: JwtAuthorizerConfig & { issuer: string; jwksUri: string; keys: JWTVerifyGetKey },
): Promise<JWTPayload> {
  // The issuer first, from the unverified claims: a token of another provider is named as such
  // instead of failing on a key this JWKS does not have.
  let claimed: JWTPayload;
  try {
    claimed = decodeJwt(token);
  } catch {
    throw new TokenRefused('the bearer token is not a JWT');
  }
  if (claimed.iss !== c.issuer)
    throw new TokenRefused(`the token was issued by ${JSON.stringify(claimed.iss)}, not by ${c.issuer}`);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, c.keys, {
      issuer: c.issuer,
      algorithms: ALGORITHMS,
      requiredClaims: ['exp'],
    }));
  } catch (err) {
    throw new TokenRefused(joseProblem(err, c.jwksUri));
  }
  const clientId = payload['client_id'];
  if (c.allowedClients?.length && !(typeof clientId === 'string' && c.allowedClients.includes(clientId)))
    throw new TokenRefused(`the token's client_id ${JSON.stringify(clientId)} is not an allowed client`);
  const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
  if (c.allowedAudience?.length && !audiences.some((a) => c.allowedAudience!.includes(a)))
    throw new TokenRefused(`the token's audience ${JSON.stringify(payload.aud)} is not an allowed audience`);
  return payload;
}

function joseProblem(err: unknown, jwksUri: string): string {
  if (err instanceof jose.JWTExpired) return `the token expired (exp ${err.payload.exp})`;
  if (err instanceof jose.JWTClaimValidationFailed) return `the token's ${err.claim} claim fails: ${err.message}`;
  if (err instanceof jose.JWSSignatureVerificationFailed) return `the token's signature does not verify (${jwksUri})`;
  if (err instanceof jose.JWKSNoMatchingKey) return `no key of ${jwksUri} matches the token's key id`;
  if (err instanceof jose.JOSEAlgNotAllowed) return `the token's algorithm is not allowed (${ALGORITHMS.join(', ')})`;
  if (err instanceof jose.JWSInvalid || err instanceof jose.JWTInvalid) return `the token is malformed: ${err.message}`;
  return `the token cannot be checked: ${errorMessage(err)}`;
}
