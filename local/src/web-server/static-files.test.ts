// The page's manifest (local/page/manifest.json) is the one list of what the page needs, here and
// in the deployed bucket: every page file is in it, every file it names exists, and every module
// any listed script imports (statically or dynamically) or loads as a worklet is listed too.
import { describe, expect, test } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentSecurityPolicy, CONTENT_TYPES, pageFiles } from './static-files.ts';

const PAGE = fileURLToPath(new URL('../../page/', import.meta.url));
const files = pageFiles();

describe('the page manifest', () => {
  test('lists every file of local/page the page is made of, each under its own name', () => {
    const own = readdirSync(PAGE).filter((n) => CONTENT_TYPES[path.extname(n)] && !n.endsWith('.test.ts'));
    for (const name of own) expect([name, files.get(`/${name}`)]).toEqual([name, path.join(PAGE, name)]);
  });

  test('every file it names exists and has a content type', () => {
    for (const [url, file] of files) {
      expect([url, existsSync(file)]).toEqual([url, true]);
      expect([url, CONTENT_TYPES[path.extname(file)]]).toEqual([url, expect.any(String)]);
    }
  });

  test('whatever a listed script imports or loads is listed too', () => {
    const wanted = new Set<string>();
    for (const [url, file] of files) {
      if (url.endsWith('.html')) {
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:src|href)="(\/[^"]*)"/g)) wanted.add(m[1]!);
        continue;
      }
      if (!url.endsWith('.js')) continue;
      const text = readFileSync(file, 'utf8');
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/gm),
        ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...text.matchAll(/addModule\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!);
      for (const s of specifiers) {
        expect([url, s, s.startsWith('/') || s.startsWith('.')]).toEqual([url, s, true]); // no bare names
        wanted.add(new URL(s, `http://page${url}`).pathname);
      }
    }
    expect([...wanted].filter((u) => !files.has(u))).toEqual([]);
  });
});

test("the content security policy allows the page's own origin, and the origins it is given", () => {
  expect(contentSecurityPolicy()).toBe(
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
  );
  expect(contentSecurityPolicy(['http://127.0.0.1:3001', 'ws://127.0.0.1:3002'])).toContain(
    "connect-src 'self' http://127.0.0.1:3001 ws://127.0.0.1:3002;",
  );
});
