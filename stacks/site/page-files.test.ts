// The page manifest as the site layer reads it: the repository's own passes, and every kind of
// bad entry is refused with the entry and the reason named, before anything is uploaded.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPageFiles } from './page-files.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'page-files-'));
  mkdirSync(join(root, 'page'));
  for (const name of ['index.html', 'app.js', 'logo.bmp']) writeFileSync(join(root, 'page', name), name);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Reads a manifest holding these files from the temporary repository. */
const read = (files: unknown) => {
  writeFileSync(join(root, 'manifest.json'), JSON.stringify({ files }));
  return readPageFiles(root, 'manifest.json');
};

test("the repository's manifest lists the page, its modules and the vendor modules, all present", () => {
  const files = readPageFiles(repoRoot, 'local/page/manifest.json');
  const paths = files.map((f) => f.urlPath);
  expect(paths).toEqual(expect.arrayContaining(['/index.html', '/app.js', '/audio-worklet.js', '/styles.css']));
  expect(paths.filter((p) => p.startsWith('/vendor/')).length).toBeGreaterThanOrEqual(4);
  expect(files.find((f) => f.urlPath === '/index.html')).toEqual({
    urlPath: '/index.html',
    key: 'index.html',
    source: join(repoRoot, 'local/page/index.html'),
    contentType: 'text/html; charset=utf-8',
  });
});

test('a root entry that is index.html is served by the distribution, not uploaded', () => {
  expect(read({ '/': 'page/index.html', '/index.html': 'page/index.html' }).map((f) => f.key)).toEqual(['index.html']);
});

describe('refuses', () => {
  test.each([
    [{ '/index.html': 'page/index.html', '/../etc': 'page/app.js' }, "'/../etc' is not a url path"],
    [{ '/index.html': 'page/index.html', '/a//b.js': 'page/app.js' }, "'/a//b.js' is not a url path"],
    [{ '/index.html': 'page/index.html', 'app.js': 'page/app.js' }, "'app.js' is not a url path"],
    [
      { '/index.html': 'page/index.html', '/config.json': 'page/app.js' },
      "'/config.json' is written by the site layer",
    ],
    [{ '/index.html': 'page/index.html', '/runtimes/x.js': 'page/app.js' }, "'/runtimes/x.js' is the runtime path"],
    [
      { '/index.html': 'page/index.html', '/logo.bmp': 'page/logo.bmp' },
      "'/logo.bmp' has an extension with no content type",
    ],
    [
      { '/index.html': 'page/index.html', '/app.js': '../outside.js' },
      "'/app.js' names '../outside.js', outside the repository",
    ],
    [{ '/index.html': 'page/index.html', '/app.js': '/etc/passwd' }, "names '/etc/passwd', outside the repository"],
    [
      { '/index.html': 'page/index.html', '/gone.js': 'page/gone.js' },
      "'/gone.js' names 'page/gone.js', which is no file",
    ],
    [{ '/index.html': 'page/index.html', '/dir.js': 'page' }, "names 'page', which is no file"],
    [{ '/index.html': 'page/index.html', '/app.js': 7 }, "'/app.js' needs a repository path"],
    [{ '/': 'page/app.js', '/index.html': 'page/index.html' }, "'/' must be the same file as '/index.html'"],
    [{ '/app.js': 'page/app.js' }, "lists no '/index.html'"],
    [['page/index.html'], 'has no "files" object'],
  ])('%j: %s', (files, message) => {
    expect(() => read(files)).toThrow(message);
  });

  test('a manifest that is missing or not JSON', () => {
    expect(() => readPageFiles(root, 'none.json')).toThrow(`page manifest none.json in ${root} is missing`);
    writeFileSync(join(root, 'broken.json'), '{"files": ');
    expect(() => readPageFiles(root, 'broken.json')).toThrow(/^page manifest broken.json is not JSON: /);
  });
});
