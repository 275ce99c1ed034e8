// The manifest written last into a synced folder or prefix: a folder with a manifest is complete,
// one without is not. Also the include-pattern filter that decides which files a sync takes.
import { posix } from 'node:path';
import { z } from 'zod';
import { COMMIT, type RepoFile } from './hub.ts';
import { invalidInput } from './errors.ts';

export const MANIFEST_NAME = 'manifest.json';

const manifestSchema = z.object({
  repo: z.string().min(1),
  commit: z.string().regex(COMMIT),
  files: z.array(
    z.object({
      path: z.string().min(1),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
  time: z.string().datetime(),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = Manifest['files'][number];

/** Builds a manifest with files sorted by path, so equal contents give equal text (apart from time). */
export function buildManifest(repo: string, commit: string, files: ManifestFile[], time = new Date()): Manifest {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    repo,
    commit,
    files: sorted.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
    time: time.toISOString(),
  };
}

export function serializeManifest(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Parses manifest text; throws InvalidSyncInput naming the problem. */
export function parseManifest(text: string, where: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalidInput(`${where} is not JSON: ${String(error)}`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw invalidInput(`${where} is not a valid manifest: ${parsed.error.message}`);
  return parsed.data;
}

/** True when both lists hold the same paths with the same sizes and digests. */
export function sameFiles(a: readonly ManifestFile[], b: readonly ManifestFile[]): boolean {
  const byPath = new Map(a.map((f) => [f.path, f]));
  return (
    a.length === b.length &&
    b.every((f) => byPath.get(f.path)?.size === f.size && byPath.get(f.path)?.sha256 === f.sha256)
  );
}

/**
 * Keeps the files matching any include glob (path.matchesGlob semantics: `*` stops at '/', `**`
 * crosses folders). An empty list selects everything. Fails when a pattern matches nothing, so a
 * typo in the include list cannot silently drop a file.
 */
export function selectFiles(files: readonly RepoFile[], include: readonly string[]): RepoFile[] {
  if (include.length === 0) return [...files];
  const unmatched = include.filter((pattern) => !files.some((f) => matchesInclude(f.path, [pattern])));
  if (unmatched.length > 0) {
    throw invalidInput(
      `include patterns matched no file in the revision: ${unmatched.map((p) => JSON.stringify(p)).join(', ')}`,
    );
  }
  return files.filter((f) => f.path !== MANIFEST_NAME && matchesInclude(f.path, include));
}

/** Whether an include list takes the file at `path` (an empty list takes everything). */
export function matchesInclude(path: string, include: readonly string[]): boolean {
  return include.length === 0 || include.some((pattern) => posix.matchesGlob(path, pattern));
}
