// Static files of the page: local/page/*, plus what it shares with other code, served as is (the
// page has no build step): eventsource-parser's ESM build, and the protocol's plain-JavaScript
// modules (WebSocket turn framing, Opus framing, the heard cut).
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = fileURLToPath(new URL('../../page/', import.meta.url));
const PARSER_ROOT = path.dirname(fileURLToPath(import.meta.resolve('eventsource-parser')));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** URL path -> file, fixed at start-up (no path from a request ever reaches the file system). */
const FILES = new Map<string, string>();
for (const name of readdirSync(WEB_ROOT)) {
  if (TYPES[path.extname(name)]) FILES.set(`/${name}`, path.join(WEB_ROOT, name));
}
FILES.set('/', path.join(WEB_ROOT, 'index.html'));
/** The protocol's modules the page imports, by the name it imports them under /vendor/kokoro-speech/. */
const PROTOCOL_MODULES: Record<string, string> = {
  'turn-ws-framing.js': '@kokoro-speech/protocol/ws-framing',
  'opus-framing.js': '@kokoro-speech/protocol/opus-framing',
  'heard-cut.js': '@kokoro-speech/protocol/heard-cut',
};
for (const [name, specifier] of Object.entries(PROTOCOL_MODULES))
  FILES.set(`/vendor/kokoro-speech/${name}`, fileURLToPath(import.meta.resolve(specifier)));
for (const name of readdirSync(PARSER_ROOT)) {
  if (name.endsWith('.js')) FILES.set(`/vendor/eventsource-parser/${name}`, path.join(PARSER_ROOT, name));
}

/** Serves the file for this path; false when there is none. */
export async function serveStatic(pathname: string, res: ServerResponse): Promise<boolean> {
  const file = FILES.get(pathname);
  if (!file) return false;
  const body = await readFile(file);
  res.writeHead(200, {
    'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.byteLength,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    // The page talks only to its own origin (SSE and WebSocket) and runs only its own scripts.
    ...(file.endsWith('.html')
      ? {
          'content-security-policy':
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
          'referrer-policy': 'no-referrer',
        }
      : {}),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
  return true;
}
