// The page's config.json: what the page reads first to know where the agent is and how to sign in.
// The same page runs locally (the local web server makes the file per request) and deployed (the
// web layer in stacks/ writes it next to the page). An external contract:
// docs/design/sign-in.md#configjson.

export interface PageSignIn {
  authority: string;
  clientId: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scope: string;
  /** A sign-out URL for providers whose discovery has no end_session_endpoint (Cognito's /logout). */
  logoutUrl?: string;
}

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
  auth: PageSignIn | null;
}

/** What a deployed stack writes: the runtime always named, and Cognito's sign-out URL with any sign-in. */
export interface DeployedPageConfig extends Omit<PageConfig, 'region' | 'runtimeArn' | 'qualifier' | 'auth'> {
  region: string;
  runtimeArn: string;
  qualifier: string;
  auth: (PageSignIn & { logoutUrl: string }) | null;
}
