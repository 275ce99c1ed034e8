// The page's config.json made per request, for the origin the browser used (the type and its
// contract: protocol/src/page-config.ts).
import type { PageConfig } from '@kokoro-speech/protocol/page-config';

export type { PageConfig };

/** What npm start --auth knows once the provider and the stand-in are up. */
export interface LocalAuthSettings {
  mode: 'direct' | 'same-origin';
  region: string;
  runtimeArn: string;
  qualifier: string;
  /** The AgentCore stand-in (http://127.0.0.1:<port>). */
  endpoint: string;
  authority: string;
  clientId: string;
  scope: string;
}

/** The page's config for a browser that reached this server as `origin` (http://host:port). */
export function localPageConfig(
  origin: string,
  auth: LocalAuthSettings | undefined,
  region: string | undefined,
): PageConfig {
  if (!auth)
    return {
      region: region ?? null,
      runtimeArn: null,
      qualifier: null,
      mode: 'same-origin',
      info: '/api/info',
      auth: null,
    };
  return {
    region: auth.region,
    runtimeArn: auth.runtimeArn,
    qualifier: auth.qualifier,
    mode: auth.mode,
    ...(auth.mode === 'direct' ? { endpoint: auth.endpoint } : {}),
    info: '/api/info',
    auth: {
      authority: auth.authority,
      clientId: auth.clientId,
      redirectUri: `${origin}/`,
      postLogoutRedirectUri: `${origin}/`,
      scope: auth.scope,
    },
  };
}

/** The origins the page connects to besides its own (its content security policy's connect-src). */
export function connectSources(auth: LocalAuthSettings | undefined): string[] {
  if (!auth) return [];
  const provider = new URL(auth.authority).origin;
  if (auth.mode !== 'direct') return [provider];
  const endpoint = new URL(auth.endpoint);
  return [provider, endpoint.origin, `${endpoint.protocol === 'https:' ? 'wss' : 'ws'}://${endpoint.host}`];
}
