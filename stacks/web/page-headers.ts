// The response headers the distribution adds to the page's files: a content security policy that
// allows exactly what the page does, and the usual security headers. Pure, so the policy can be
// read and tested without a distribution. What the page does: docs/design/web-and-sign-in.md.

/** `direct`: the page calls the AgentCore data plane; `same-origin`: its own `/runtimes/*` path. */
export type RuntimeAccess = 'direct' | 'same-origin';

export interface PagePolicyArgs {
  /** Region of the runtime (its data plane host) and of the user pool (its issuer host). */
  region: string;
  runtimeAccess: RuntimeAccess;
  /** Origin of the user pool's managed login (token, revoke, userInfo, logout endpoints). */
  loginOrigin: string;
}

/** The AgentCore data plane host the page calls in `direct` mode. */
export const agentCoreHost = (region: string): string => `bedrock-agentcore.${region}.amazonaws.com`;

/**
 * The page runs only its own ES modules (and its AudioWorklet modules, which script-src governs;
 * and the WebAssembly of Talk's voice detector, onnxruntime-web's, which 'wasm-unsafe-eval' lets it
 * compile without allowing eval),
 * its own stylesheet (scripts set positions through the CSSOM, which style-src does not restrict),
 * a `data:` favicon; it fetches config.json from its origin, the pool's discovery document and
 * keys from the issuer, tokens from the managed login origin, and, in `direct` mode, the runtime
 * over HTTPS (SSE) and WSS. Nothing may frame it, and nothing else loads.
 */
export function contentSecurityPolicy(args: PagePolicyArgs): string {
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(args.region)) throw new Error(`'${args.region}' is not an AWS region`);
  if (!/^https:\/\/[a-z0-9.-]+$/.test(args.loginOrigin)) {
    throw new Error(`login origin '${args.loginOrigin}' must be https://<host>, without a path`);
  }
  const connect = ["'self'", `https://cognito-idp.${args.region}.amazonaws.com`, args.loginOrigin];
  if (args.runtimeAccess === 'direct') {
    connect.push(`https://${agentCoreHost(args.region)}`, `wss://${agentCoreHost(args.region)}`);
  }
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers beside the CSP: the page uses the microphone (Talk) on its own origin, and no camera, location or payment. */
export const permissionsPolicy = 'camera=(), microphone=(self), geolocation=(), payment=(), usb=()';

/** HSTS: two years, subdomains included; not preloaded (that is the domain owner's decision). */
export const hstsMaxAgeSeconds = 63_072_000;
