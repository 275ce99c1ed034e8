// Who may use the web server's turn endpoints: only the page's own origin. The Host check stops
// DNS rebinding (a hostile site resolving its own name to 127.0.0.1); the Origin check stops
// other sites' pages from posting turns or opening the WebSocket (browsers always send Origin there).
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export interface OriginPolicy {
  /** Host header values accepted; null = any (the server was bound beyond loopback on purpose). */
  hosts: Set<string> | null;
}

export function originPolicy(bindHost: string, port: number): OriginPolicy {
  const loopback = bindHost === '127.0.0.1' || bindHost === 'localhost' || bindHost === '::1';
  return { hosts: loopback ? new Set(LOOPBACK_NAMES.map((h) => `${h}:${port}`)) : null };
}

/** Why this request is refused, or null when it may go on. */
export function refusal(req: IncomingMessage, policy: OriginPolicy): string | null {
  const host = req.headers.host;
  if (!host) return 'missing Host header';
  if (policy.hosts && !policy.hosts.has(host.toLowerCase())) return `Host ${JSON.stringify(host)} is not this server`;
  const origin = req.headers.origin;
  if (origin === undefined) return null; // not a browser (curl, the CLI): nothing to protect against
  if (origin !== `http://${host}` && origin !== `https://${host}`) {
    return `Origin ${JSON.stringify(origin)} may not use this server (only the page's own origin may)`;
  }
  return null;
}
