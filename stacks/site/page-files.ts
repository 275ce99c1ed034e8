// The page's files as the site layer uploads them: read from local/page/manifest.json (the one
// list the local web server serves from too: `{"files": {"<url path>": "<repository path>"}}`),
// checked, with the content type and cache policy each object gets. The bad manifest's error names
// the entry and what is wrong with it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

export interface PageFile {
  /** `/app.js`: what the page requests. */
  urlPath: string;
  /** `app.js`: the object's key in the bucket. */
  key: string;
  /** Absolute path of the file to upload. */
  source: string;
  contentType: string;
}

/** Content types by extension; a file of any other kind is refused, not served as octets. */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream', // the voice detector's weights (Talk)
};

/**
 * Browsers revalidate every file on each load (max-age=0: the names carry no hash), edges keep
 * them a day (s-maxage, which CloudFront honours over max-age); each upload invalidates the edges.
 */
export const CACHE_CONTROL = 'public, max-age=0, must-revalidate, s-maxage=86400';

/** The one file the site layer writes itself (contract 6), never taken from the manifest. */
export const CONFIG_PATH = '/config.json';

const URL_PATH = /^\/(?:[A-Za-z0-9_~-][A-Za-z0-9._~-]*\/)*[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/** The manifest's files, checked; `/` (which CloudFront serves from index.html) is not uploaded. */
export function readPageFiles(repoRoot: string, manifestPath: string): PageFile[] {
  const where = `${manifestPath} in ${repoRoot}`;
  const file = join(repoRoot, manifestPath);
  if (!existsSync(file)) throw new Error(`page manifest ${where} is missing (the page's files are listed there)`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`page manifest ${manifestPath} is not JSON: ${(error as Error).message}`);
  }
  const files = (manifest as { files?: unknown } | null)?.files;
  if (files === null || typeof files !== 'object' || Array.isArray(files)) {
    throw new Error(`page manifest ${manifestPath} has no "files" object of url path -> repository path`);
  }
  const listed = files as Record<string, unknown>;
  const bad = (urlPath: string, why: string) => new Error(`page manifest ${manifestPath}: '${urlPath}' ${why}`);
  const pageFiles: PageFile[] = [];
  for (const [urlPath, relative] of Object.entries(listed)) {
    if (typeof relative !== 'string' || relative === '') throw bad(urlPath, 'needs a repository path as its value');
    if (urlPath === '/') {
      if (listed['/index.html'] !== relative) {
        throw bad(urlPath, "must be the same file as '/index.html' (CloudFront serves index.html at the root)");
      }
      continue;
    }
    if (!URL_PATH.test(urlPath)) throw bad(urlPath, 'is not a url path of letters, digits and . _ ~ - segments');
    if (urlPath === CONFIG_PATH) throw bad(urlPath, 'is written by the site layer (the runtime and sign-in settings)');
    if (urlPath.startsWith('/runtimes/')) throw bad(urlPath, 'is the runtime path of same-origin mode');
    const contentType = CONTENT_TYPES[extname(urlPath)];
    if (contentType === undefined) {
      throw bad(urlPath, `has an extension with no content type here (${Object.keys(CONTENT_TYPES).join(' ')})`);
    }
    const inside = normalize(relative);
    if (inside.startsWith('..') || inside.startsWith(sep) || /^[A-Za-z]:/.test(inside)) {
      throw bad(urlPath, `names '${relative}', outside the repository`);
    }
    const source = join(repoRoot, inside);
    if (!existsSync(source) || !statSync(source).isFile()) throw bad(urlPath, `names '${relative}', which is no file`);
    pageFiles.push({ urlPath, key: urlPath.slice(1), source, contentType });
  }
  if (!pageFiles.some((f) => f.urlPath === '/index.html')) {
    throw new Error(`page manifest ${manifestPath} lists no '/index.html'`);
  }
  return pageFiles;
}
