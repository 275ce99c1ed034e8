// Who may use the web server's turn endpoints: only the page's own origin, reached by a name this
// server serves. The Host check stops DNS rebinding (a hostile site resolving its own name to this
// machine's address: the browser then sends that site's name as Host, and treats the answers as
// that site's); the Origin check stops other sites' pages from posting turns or opening the
// WebSocket (browsers always send Origin there).
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

export interface OriginPolicy {
  /** Host header values accepted (name:port, lower case). */
  hosts: Set<string>;
}

/** The names this machine answers to without anyone else's DNS: its addresses and its host name. */
function ownNames(): string[] {
  const names = [hostname().toLowerCase()];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) {
      if (a.address.includes('%')) continue; // a link-local address with a zone: not a Host header
      names.push(a.family === 'IPv6' ? `[${a.address}]` : a.address);
    }
  }
  return names;
}

/**
 * The Host values served: the loopback names always; bound to one address beyond loopback, that
 * address too; bound to every interface (0.0.0.0, ::), this machine's addresses and host name.
 * `allowedHosts` (`--allow-host`) adds names (a DNS name or address; `name:port` to give another
 * port, as behind a proxy); anything else is refused.
 */
export function originPolicy(bindHost: string, port: number, allowedHosts: readonly string[] = []): OriginPolicy {
  const names = new Set(LOOPBACK_NAMES);
  const bind = bindHost.toLowerCase();
  if (WILDCARDS.has(bind)) for (const name of ownNames()) names.add(name);
  else if (!LOOPBACK_NAMES.includes(bind) && bind !== '::1') names.add(bind.includes(':') ? `[${bind}]` : bind);
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  for (const entry of allowedHosts) {
    const host = hostWithPort(entry.trim().toLowerCase(), port);
    if (host) hosts.add(host);
  }
  return { hosts };
}

/** `name`, `name:port`, `[v6]`, `[v6]:port` or a bare IPv6 address as a Host value with a port. */
function hostWithPort(entry: string, port: number): string | undefined {
  if (entry === '') return undefined;
  if (entry.startsWith('[')) return /\]:\d+$/.test(entry) ? entry : `${entry}:${port}`;
  if (entry.split(':').length > 2) return `[${entry}]:${port}`; // a bare IPv6 address
  return /:\d+$/.test(entry) ? entry : `${entry}:${port}`;
}

/** Why this request is refused, or null when it may go on. */
export function refusal(req: IncomingMessage, policy: OriginPolicy): string | null {
  const host = req.headers.host;
  if (!host) return 'missing Host header';
  if (!policy.hosts.has(host.toLowerCase()))
    return `Host ${JSON.stringify(host)} is not a name this server serves (add it with --allow-host)`;
  const origin = req.headers.origin;
  if (origin === undefined) return null; // not a browser (curl, the CLI): nothing to protect against
  if (origin !== `http://${host}` && origin !== `https://${host}`) {
    return `Origin ${JSON.stringify(origin)} may not use this server (only the page's own origin may)`;
  }
  return null;
}
