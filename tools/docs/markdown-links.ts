// The repository's Markdown as a reader follows it: the relative links of each file and the
// anchors its headings make, and the docs pages (with anchors) that code comments cite. Written by
// hand because the check is small and specific (GitHub's heading slugs, links relative to the
// file, anchors into other files); a Markdown parser would add a dependency for a dozen lines.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Repository-relative paths of the files under the root whose names match, outside node_modules and dot folders. */
export function filesMatching(pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(ROOT, dir))) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = dir === '' ? name : `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (pattern.test(name)) out.push(path);
    }
  };
  walk('');
  return out.sort();
}

/** Markdown without its fenced code blocks and inline code (links there are examples, not links). */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const marker = /^\s{0,3}(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker.slice(0, 3) : null;
      lines.push('');
      continue;
    }
    lines.push(fence === null ? line.replace(/`+[^`]*`+/g, '') : '');
  }
  return lines;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings make (repeats get -1, -2, as on GitHub). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  line: number;
  target: string;
}

/** The relative links and images of a Markdown file (web addresses and mail links left out). */
export function relativeLinks(markdown: string): Link[] {
  const out: Link[] = [];
  prose(markdown).forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ line: i + 1, target });
    }
  });
  return out;
}

/** Why a link from `file` (repository-relative) does not resolve, or null when it does. */
export function brokenTarget(file: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
  if (!resolved.startsWith(ROOT)) return 'points outside the repository';
  if (!existsSync(resolved)) return `no such file: ${relative(ROOT, resolved)}`;
  if (anchor === undefined || anchor === '') return null;
  if (!resolved.endsWith('.md')) return null;
  return anchors(readFileSync(resolved, 'utf8')).has(anchor)
    ? null
    : `no heading #${anchor} in ${relative(ROOT, resolved)}`;
}

/** The comment of a source line: a `*` or `/*` line whole, else what follows `//` or a YAML `#`. */
function comment(line: string): string {
  if (/^\s*(\*|\/\*)/.test(line)) return line;
  const slashes = line.indexOf('//');
  if (slashes >= 0) return line.slice(slashes + 2);
  return /^\s*#/.test(line) ? line : '';
}

/** The `docs/` pages (with their anchors) a source file's comments cite. */
export function citedDocs(source: string): Link[] {
  const out: Link[] = [];
  source.split('\n').forEach((text, i) => {
    for (const m of comment(text).matchAll(/(?<![\w/.-])(docs\/[\w/-]+\.md(?:#[\w-]+)?)/g))
      out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}
