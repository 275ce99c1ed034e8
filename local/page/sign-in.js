// Signing in with OpenID Connect (authorization code with PKCE, a public client: no secret), with
// oauth4webapi, an OpenID-certified client whose browser build is one ES module with no imports
// (oidc-client-ts's ES build imports jwt-decode by its bare name, which a page without a build
// step could only resolve with an inline import map, which the content security policy forbids).
// Tokens live in sessionStorage (this tab, until it closes); the access token is refreshed with
// the refresh token when it is about to expire; when that fails the user signs in again, and the
// conversation (its session id) and the prompt being sent come back after the redirect.
import * as oauth from '/vendor/oauth4webapi/index.js';

const TOKENS = 'kokoro.tokens';
const PENDING = 'kokoro.sign-in';

/** Signing in is needed (no tokens, or they expired and could not be refreshed). */
export class SignInNeeded extends Error {}

export class SignIn {
  /** Reads the provider's discovery; finishes a sign-in when this load is its redirect back. */
  static async start(settings) {
    const authority = new URL(settings.authority);
    // Only a provider on this machine may be plain http (npm start --auth); anything else is refused.
    const http = authority.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(authority.hostname);
    const options = http ? { [oauth.allowInsecureRequests]: true } : {};
    const as = await oauth.processDiscoveryResponse(authority, await oauth.discoveryRequest(authority, options));
    const signIn = new SignIn(settings, as, options);
    await signIn.#finish().catch((err) => (signIn.failure = err.error_description ?? err.error ?? err.message));
    return signIn;
  }

  constructor(settings, as, options) {
    this.settings = settings;
    this.as = as;
    this.options = options;
    this.client = { client_id: settings.clientId };
    this.tokens = JSON.parse(sessionStorage.getItem(TOKENS) ?? 'null');
    /** What the redirect back brought: { session, prompt, again } of the page before it. */
    this.returned = null;
    /** Why finishing a sign-in failed (the provider refused, or the code could not be exchanged). */
    this.failure = null;
    this.refreshing = null;
  }

  /** Who is signed in: { sub, name } (from the ID token), or null. */
  get user() {
    return this.tokens?.user ?? null;
  }

  /** Goes to the provider's sign-in; `keep`: the session id and prompt to have back afterwards. */
  async signIn(keep = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, nonce, keep }));
    const url = new URL(this.as.authorization_endpoint);
    const params = {
      client_id: this.settings.clientId,
      redirect_uri: this.settings.redirectUri,
      response_type: 'code',
      scope: this.settings.scope,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    location.assign(url);
  }

  /** Forgets the tokens and signs out at the provider, which sends the browser back to the page. */
  signOut() {
    const idToken = this.tokens?.idToken;
    this.#store(null);
    const { clientId, postLogoutRedirectUri, logoutUrl } = this.settings;
    let url;
    if (this.as.end_session_endpoint) {
      url = new URL(this.as.end_session_endpoint);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri);
      if (idToken) url.searchParams.set('id_token_hint', idToken);
    } else if (logoutUrl) {
      url = new URL(logoutUrl); // Cognito's /logout: its own parameter names
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('logout_uri', postLogoutRedirectUri);
    } else url = new URL(postLogoutRedirectUri);
    location.assign(url);
  }

  /** A current access token: refreshed first when it expires within a minute; else SignInNeeded. */
  async accessToken({ refresh = false } = {}) {
    const t = this.tokens;
    if (!t) throw new SignInNeeded('not signed in');
    const margin = Math.min(60_000, (t.lifetimeMs ?? 0) / 4);
    if (!refresh && t.expiresAt - Date.now() > margin) return t.accessToken;
    this.refreshing ??= this.#refresh().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  async #refresh() {
    const t = this.tokens;
    if (!t?.refreshToken) {
      this.#store(null);
      throw new SignInNeeded('the sign-in expired');
    }
    try {
      const res = await oauth.refreshTokenGrantRequest(
        this.as,
        this.client,
        oauth.None(),
        t.refreshToken,
        this.options,
      );
      this.#keep(await oauth.processRefreshTokenResponse(this.as, this.client, res), t);
      return this.tokens.accessToken;
    } catch (err) {
      this.#store(null);
      throw new SignInNeeded(`the sign-in expired (${err.error ?? err.message})`);
    }
  }

  /** This load is the provider's redirect back: the code is exchanged and the address cleaned up. */
  async #finish() {
    const here = new URL(location.href);
    if (!here.searchParams.has('state')) return;
    const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? 'null');
    sessionStorage.removeItem(PENDING);
    history.replaceState(null, '', `${here.pathname}${here.hash}`);
    if (!pending) return; // a stale or foreign redirect: nothing was asked for
    const params = oauth.validateAuthResponse(this.as, this.client, here, pending.state);
    const res = await oauth.authorizationCodeGrantRequest(
      this.as,
      this.client,
      oauth.None(),
      params,
      this.settings.redirectUri,
      pending.verifier,
      this.options,
    );
    const result = await oauth.processAuthorizationCodeResponse(this.as, this.client, res, {
      expectedNonce: pending.nonce,
      requireIdToken: true,
    });
    this.#keep(result, null);
    this.returned = pending.keep ?? {};
  }

  /** Keeps a token response; what a refresh leaves out (refresh and ID tokens) stays as it was. */
  #keep(result, before) {
    const claims = oauth.getValidatedIdTokenClaims(result);
    const lifetimeMs = (result.expires_in ?? 3600) * 1000;
    this.#store({
      accessToken: result.access_token,
      refreshToken: result.refresh_token ?? before?.refreshToken ?? null,
      idToken: result.id_token ?? before?.idToken ?? null,
      expiresAt: Date.now() + lifetimeMs,
      lifetimeMs,
      user: claims
        ? { sub: claims.sub, name: claims.preferred_username ?? claims.email ?? claims.name ?? claims.sub }
        : before?.user,
    });
  }

  #store(tokens) {
    this.tokens = tokens;
    if (tokens) sessionStorage.setItem(TOKENS, JSON.stringify(tokens));
    else sessionStorage.removeItem(TOKENS);
  }
}
