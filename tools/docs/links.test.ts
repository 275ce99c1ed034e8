// The documentation holds together: every relative link and image of every Markdown file leads to
// a file of the repository (and, with an anchor, to one of its headings), every docs page a code
// comment cites exists with the heading it names, and no file points a reader at a document the
// repository does not contain.
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, anchors, brokenTarget, citedDocs, filesMatching, relativeLinks, slug } from './markdown-links.ts';

const markdown = filesMatching(/\.md$/);
// This folder's own files hold examples of links, not citations.
const sources = filesMatching(/\.(ts|js|mjs|yaml)$/).filter((f) => !f.startsWith('tools/docs/'));
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

describe('the link checker itself', () => {
  test('makes the anchors GitHub makes', () => {
    expect(slug('Opus (`format: "opus"`)')).toBe('opus-format-opus');
    expect(slug('The router: documented and inferred')).toBe('the-router-documented-and-inferred');
    expect(slug('`played_ms`')).toBe('played_ms');
    expect([...anchors('# A\n## Notes\n```\n# not a heading\n```\n## Notes\n')]).toEqual(['a', 'notes', 'notes-1']);
  });

  test('finds relative links outside code, and only those', () => {
    const text = '[a](b.md#c) ![i](img.png) [w](https://example.com) `[x](y.md)`\n```\n[z](z.md)\n```\n';
    expect(relativeLinks(text).map((l) => l.target)).toEqual(['b.md#c', 'img.png']);
    expect(brokenTarget('README.md', 'no-such-file.md')).toMatch(/no such file/);
    expect(brokenTarget('README.md', 'docs/README.md#no-such-heading')).toMatch(/no heading/);
  });

  test('reads citations from comments only', () => {
    const code = "// docs/design/x.md#y\nconst path = 'docs/a.md';\n * see docs/b.md\n";
    expect(citedDocs(code)).toEqual([
      { line: 1, target: 'docs/design/x.md#y' },
      { line: 3, target: 'docs/b.md' },
    ]);
  });
});

test('there is documentation to check', () => {
  expect(markdown).toContain('README.md');
  expect(markdown.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(10);
});

test('every relative link of the Markdown files resolves', () => {
  const broken = markdown.flatMap((file) =>
    relativeLinks(read(file)).flatMap(({ line, target }) => {
      const why = brokenTarget(file, target);
      return why === null ? [] : [`${file}:${line}: ${target}: ${why}`];
    }),
  );
  expect(broken).toEqual([]);
});

test('every docs page a code comment cites exists, with its heading', () => {
  const broken = sources.flatMap((file) =>
    citedDocs(read(file)).flatMap(({ line, target }) => {
      const why = brokenTarget('', target);
      return why === null ? [] : [`${file}:${line}: ${target}: ${why}`];
    }),
  );
  expect(broken).toEqual([]);
});

test('no file sends a reader to a document outside the repository', () => {
  const outside = /field[ -]notes|shared[/]notes/i;
  const found = [...markdown, ...sources].filter((file) => outside.test(read(file)));
  expect(found).toEqual([]);
});
