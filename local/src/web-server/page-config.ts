// config.json: what the page reads first to know where the agent is and how to sign in (the same
// page runs locally and deployed; the deployed one gets this file from the web layer, stacks/).
// Locally it is made per request, for the origin the browser used. The shape is an external
// contract: docs/design/sign-in.md#configjson.

export interface PageConfig {
  region: string | null;
  runtimeArn: string | null;
  qualifier: string | null;
  /** direct: the page calls the data-plane endpoint; same-origin: /runtimes/... on its own origin. */
  mode: 'direct' | 'same-origin';
  /** The data-plane origin in direct mode (default https://bedrock-agentcore.<region>.amazonaws.com). */
  endpoint?: string;
  /** Where the page reads the set-up it shows (npm start's /api/info); absent when deployed. */
  info?: string;
  /** null: no sign-in; turns go through the local web server's gateway (/api/...). */
  auth: {
    authority: string;
    clientId: string;
    redirectUri: string;
    postLogoutRedirectUri: string;
    scope: string;
    /** A sign-out URL for providers whose discovery has no end_session_endpoint (Cognito's /logout). */
    logoutUrl?: string;
  } | null;
}

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
