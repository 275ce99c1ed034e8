// Test callers that carry a signed-in user: access tokens as an authorizer's issuer signs them
// (jose; the agent only decodes them, AgentCore verifies), as a bearer header or as the WebSocket
// subprotocol pair, and the outcome of a WebSocket upgrade (its status, body and chosen protocol).
import WebSocket from 'ws';
import { SignJWT } from 'jose';
import { BEARER_SUBPROTOCOL } from '../server/identity.ts';

export const TEST_ISSUER = 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example';
const secret = new TextEncoder().encode('a key only the test issuer has, 32 bytes or more');

/** An access token as Cognito issues them (client_id, no aud) for `sub`; `claims: null`: no sub. */
export function tokenFor(sub: string | null, issuer = TEST_ISSUER): Promise<string> {
  const jwt = new SignJWT({ client_id: 'page-client', token_use: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(issuer)
    .setIssuedAt()
    .setExpirationTime('1h');
  return (sub === null ? jwt : jwt.setSubject(sub)).sign(secret);
}

/** The Authorization header of `sub`'s token. */
export const bearer = async (sub: string): Promise<Record<string, string>> => ({
  authorization: `Bearer ${await tokenFor(sub)}`,
});

/** The subprotocol pair a browser offers with `sub`'s token. */
export const subprotocols = async (sub: string): Promise<string[]> => [
  `${BEARER_SUBPROTOCOL}.${Buffer.from(await tokenFor(sub)).toString('base64url')}`,
  BEARER_SUBPROTOCOL,
];

export interface UpgradeOutcome {
  /** 101 when it opened. */
  status: number;
  body: string;
  /** The subprotocol the server chose ('' when refused or none). */
  protocol: string;
  wwwAuthenticate?: string;
}

/** Opens (then closes) a WebSocket, or reads its refusal. */
export function upgrade(
  url: string,
  headers: Record<string, string>,
  protocols: string[] = [],
): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          protocol: '',
          ...(res.headers['www-authenticate'] ? { wwwAuthenticate: String(res.headers['www-authenticate']) } : {}),
        }),
      );
    });
    ws.on('open', () => {
      resolve({ status: 101, body: '', protocol: ws.protocol });
      ws.close();
    });
    ws.on('error', reject);
  });
}
