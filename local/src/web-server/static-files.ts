// Static files of the page, served as they are (the page has no build step): exactly the files of
// its manifest, local/page/manifest.json (URL path -> repository-relative source: the page's own
// modules, the protocol's plain-JavaScript modules, and the vendor modules from node_modules). The
// deployed page's bucket gets the same list (stacks/), so what runs locally is what is deployed.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
export const MANIFEST = fileURLToPath(new URL('../../page/manifest.json', import.meta.url));

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  // The browser's voice detector for Talk: onnxruntime-web's WebAssembly (compiled streaming only
  // with this type) and the Silero weights.
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
};

/** The manifest's files: URL path -> absolute file path. */
export function pageFiles(manifest = MANIFEST): Map<string, string> {
  const { files } = JSON.parse(readFileSync(manifest, 'utf8')) as { files: Record<string, string> };
  return new Map(Object.entries(files).map(([url, source]) => [url, path.join(REPOSITORY, source)]));
}

/** URL path -> file, fixed at start-up (no path from a request ever reaches the file system). */
const FILES = pageFiles();
FILES.set('/', FILES.get('/index.html')!);

/**
 * The page's content security policy: its own scripts only (and their WebAssembly: the voice
 * detector of Talk runs in onnxruntime-web's, which 'wasm-unsafe-eval' allows to compile without
 * allowing eval); connections to `connectTo` besides its origin.
 */
export function contentSecurityPolicy(connectTo: readonly string[] = []): string {
  return `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src ${["'self'", ...connectTo].join(' ')}; img-src 'self' data:; frame-ancestors 'none'`;
}

/** Serves the file for this path; false when there is none. `csp`: the HTML page's policy. */
export async function serveStatic(
  pathname: string,
  res: ServerResponse,
  csp = contentSecurityPolicy(),
): Promise<boolean> {
  const file = FILES.get(pathname);
  if (!file) return false;
  const body = await readFile(file);
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
    'content-length': body.byteLength,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...(file.endsWith('.html') ? { 'content-security-policy': csp, 'referrer-policy': 'no-referrer' } : {}),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
  return true;
}
