// Signs a test user in to an OpenID Connect provider the way a browser does, over plain HTTP
// (tests only): the authorization request with PKCE, the provider's redirects and cookies, its
// sign-in form posted, the code exchanged for tokens with oauth4webapi (the library the page uses).
import * as oauth from 'oauth4webapi';

export interface SignedIn {
  accessToken: string;
  idToken: string | undefined;
  refreshToken: string | undefined;
  expiresIn: number | undefined;
}

export interface SignInOptions {
  issuer: string;
  clientId: string;
  redirectUri: string;
  username: string;
  password: string;
  scope?: string;
}

const insecure = { [oauth.allowInsecureRequests]: true }; // the local provider is http on loopback

export async function signInOverHttp(options: SignInOptions): Promise<SignedIn> {
  const issuer = new URL(options.issuer);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client: oauth.Client = { client_id: options.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope ?? 'openid profile email',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  }))
    authorize.searchParams.set(k, v);

  const cookies = new Map<string, string>();
  const go = async (url: URL, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  /** Follows redirects until one leaves the provider (the callback) or a page is shown. */
  const follow = async (res: Response, from: URL): Promise<{ res: Response; url: URL }> => {
    let url = from;
    while (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      if (url.origin !== issuer.origin) return { res, url };
      res = await go(url);
    }
    return { res, url };
  };

  const form = await follow(await go(authorize), authorize);
  if (form.res.status !== 200) throw new Error(`the provider answered ${form.res.status}: ${await form.res.text()}`);
  const action = /<form method="post" action="([^"]+)"/.exec(await form.res.text())?.[1];
  if (!action) throw new Error(`no sign-in form at ${form.url}`);
  const posted = new URL(
    action.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c))),
    form.url,
  );
  const callback = await follow(
    await go(posted, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: options.username, password: options.password }).toString(),
    }),
    posted,
  );
  if (callback.url.origin === issuer.origin)
    throw new Error(`the sign-in did not go through (${callback.res.status}): ${await callback.res.text()}`);
  const params = oauth.validateAuthResponse(as, client, callback.url, state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    options.redirectUri,
    verifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return {
    accessToken: tokens.access_token,
    idToken: tokens.id_token,
    refreshToken: tokens.refresh_token,
    expiresIn: tokens.expires_in,
  };
}
