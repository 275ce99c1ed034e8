// Where the page sends its turns, from config.json (the same page runs locally and deployed):
// without sign-in, to the local web server's gateway (/api/invocations, /api/ws); with sign-in,
// to the AgentCore runtime with the access token, either directly (its data-plane endpoint) or on
// the page's own origin (/runtimes/..., which CloudFront, or npm start --auth, passes on). The
// token goes as a bearer header over SSE and as AgentCore's subprotocol pair over WebSocket (a
// browser cannot set headers on one): docs/design/sign-in.md#what-agentcore-takes.

const SESSION_HEADER = 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id';
const WS_BEARER = 'base64UrlBearerAuthorization';

export async function loadConfig() {
  const res = await fetch('/config.json', { cache: 'no-store' });
  if (!res.ok) throw new Error(`/config.json answered ${res.status}`);
  return res.json();
}

function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  if (bytes.toBase64) return bytes.toBase64({ alphabet: 'base64url', omitPadding: true });
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/**
 * The endpoint turns use: `invocation(sessionId)` -> {url, headers} for the SSE POST,
 * `webSocket(sessionId)` -> {url, protocols}. Each asks `signIn` for a current token first
 * (`bearer`: a 401 means the token, and a refreshed one is worth a try).
 */
export function agentEndpoint(config, signIn) {
  if (!config.auth) {
    return {
      invocation: async (sessionId) => ({ url: '/api/invocations', headers: { 'x-session-id': sessionId } }),
      webSocket: async (sessionId) => {
        const url = new URL(`/api/ws?session=${encodeURIComponent(sessionId)}`, location.href);
        url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
        return { url: url.href, protocols: [] };
      },
    };
  }
  const origin =
    config.mode === 'direct'
      ? (config.endpoint ?? `https://bedrock-agentcore.${config.region}.amazonaws.com`)
      : location.origin;
  const runtime = `/runtimes/${encodeURIComponent(config.runtimeArn)}`;
  const qualifier = `qualifier=${encodeURIComponent(config.qualifier ?? 'DEFAULT')}`;
  return {
    bearer: true,
    async invocation(sessionId, { refresh } = {}) {
      const token = await signIn.accessToken({ refresh });
      return {
        url: `${origin}${runtime}/invocations?${qualifier}`,
        headers: { authorization: `Bearer ${token}`, [SESSION_HEADER]: sessionId },
      };
    },
    async webSocket(sessionId) {
      const token = await signIn.accessToken();
      const url = new URL(`${runtime}/ws?${qualifier}&${SESSION_HEADER}=${encodeURIComponent(sessionId)}`, origin);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      return { url: url.href, protocols: [`${WS_BEARER}.${base64url(token)}`, WS_BEARER] };
    },
  };
}
