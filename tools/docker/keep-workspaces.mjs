#!/usr/bin/env node
// Image builds: rewrites the root package.json so that `npm ci` installs only the named workspaces'
// production dependencies, pinned by the unchanged root lock file (npm ignores the lock's entries for
// workspaces the manifest no longer lists). So an image's build context needs only its own
// workspaces, and its node_modules holds nothing the image does not run.
//   node tools/docker/keep-workspaces.mjs protocol container && npm ci --omit=dev --ignore-scripts
import { readFileSync, writeFileSync } from 'node:fs';

const keep = process.argv.slice(2);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const unknown = keep.filter((name) => !manifest.workspaces.includes(name));
if (keep.length === 0 || unknown.length > 0) {
  console.error(
    `keep-workspaces: name workspaces of ${manifest.workspaces.join(', ')}; unknown: ${unknown.join(', ')}`,
  );
  process.exit(2);
}
manifest.workspaces = manifest.workspaces.filter((name) => keep.includes(name));
delete manifest.devDependencies; // the root's are tools (jest, tsc, the pinned node): never in an image
writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
