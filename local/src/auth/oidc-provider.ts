// The local OpenID Connect provider of `npm start -- --auth`: oidc-provider (panva's certified
// implementation) on loopback, standing in for the Cognito user pool of the deployed page. One
// public client (the page: authorization code with PKCE, no secret, as Cognito's app client), the
// test users (test-users.ts) signing in on our own form, consent skipped (a first-party app), and
// access tokens as JWTs carrying `client_id`, which is what AgentCore's authorizer checks
// (docs/design/sign-in.md#the-local-provider).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { errorPage, signedOutPage, signOutPage } from './provider-pages.ts';
import { memoryStore } from './memory-store.ts';
import { handleInteraction } from './sign-in-form.ts';
import { userBySub } from './test-users.ts';

/** The page's client id (what config.json names and the stand-in allows). */
export const PAGE_CLIENT_ID = 'kokoro-speech-page';
/** The scopes the page asks for: the same as with Cognito (which has no offline_access). */
export const PAGE_SCOPE = 'openid profile email';
/** The resource every access token is for (the agent); tokens for it are JWTs. */
const AGENT_RESOURCE = 'urn:kokoro-speech:agent';
/** Cognito's defaults: tokens last an hour, refresh tokens 30 days. */
export const DEFAULT_TOKEN_TTL_S = 3600;
export const DEFAULT_REFRESH_TTL_S = 30 * 24 * 3600;

export interface OidcClient {
  clientId: string;
  /** Where the provider may send the browser back with a code (exactly these). */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
}

export interface LocalOidcProviderOptions {
  /** The page's client (default id PAGE_CLIENT_ID); `extraClients`: more (tests: another client). */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  extraClients?: OidcClient[];
  /** Access and ID token lifetime (default an hour). */
  tokenTtlS?: number;
  refreshTtlS?: number;
  host?: string;
  port?: number;
}

export interface LocalOidcProvider {
  /** The issuer (= the authority the page is given): http://127.0.0.1:<port> */
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  close(): Promise<void>;
}

export async function startLocalOidcProvider(options: LocalOidcProviderOptions): Promise<LocalOidcProvider> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const issuer = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, configuration(options, await newSigningKey()));
  const callback = provider.callback();
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      handleInteraction(provider, url, req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
        res.end(errorPage({ error: err instanceof Error ? err.message : String(err) }));
      });
      return;
    }
    void callback(req, res);
  });
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId: PAGE_CLIENT_ID,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function configuration(options: LocalOidcProviderOptions, signingKey: JWK): Configuration {
  const tokenTtl = options.tokenTtlS ?? DEFAULT_TOKEN_TTL_S;
  const refreshTtl = options.refreshTtlS ?? DEFAULT_REFRESH_TTL_S;
  const clients: OidcClient[] = [
    {
      clientId: PAGE_CLIENT_ID,
      redirectUris: options.redirectUris,
      postLogoutRedirectUris: options.postLogoutRedirectUris ?? options.redirectUris,
    },
    ...(options.extraClients ?? []),
  ];
  return {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_name: 'kokoro-speech',
      application_type: 'web',
      token_endpoint_auth_method: 'none', // a public client: no secret, PKCE instead
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris ?? c.redirectUris,
    })),
    adapter: memoryStore(),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'], email: ['email', 'email_verified'] },
    async findAccount(_ctx, sub) {
      const user = userBySub(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          name: user.name,
          preferred_username: user.username,
          email: user.email,
          email_verified: true,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A first-party app: the grant is given at sign-in, as Cognito does (no consent screen).
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const existing = session.grantIdFor(client.clientId);
      if (existing) {
        const grant = await ctx.oidc.provider.Grant.find(existing);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(PAGE_SCOPE);
      grant.addResourceScope(AGENT_RESOURCE, 'agent');
      await grant.save();
      return grant;
    },
    // Cognito issues a refresh token with every code grant and does not rotate it by default.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: false,
    ttl: {
      AccessToken: tokenTtl,
      IdToken: tokenTtl,
      RefreshToken: refreshTtl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: refreshTtl,
      Grant: refreshTtl,
    },
    features: {
      devInteractions: { enabled: false },
      // Without the userinfo endpoint every access token is for the agent, so a JWT (below).
      userinfo: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          ctx.body = signOutPage(form, ctx.host);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => AGENT_RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== AGENT_RESOURCE) throw new Error(`unknown resource ${resource}`);
          return {
            scope: 'agent',
            accessTokenFormat: 'jwt',
            accessTokenTTL: tokenTtl,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    // Claims Cognito's access tokens carry besides the JWT profile's (iss, sub, client_id, exp...).
    extraTokenClaims: async (_ctx, token) => {
      const user = 'accountId' in token && typeof token.accountId === 'string' ? userBySub(token.accountId) : undefined;
      return { token_use: 'access', ...(user ? { username: user.username } : {}) };
    },
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage({ ...out });
    },
  };
}

/** A new RSA key for each start: tokens from an earlier run no longer verify (as after a rotation). */
async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };
}
