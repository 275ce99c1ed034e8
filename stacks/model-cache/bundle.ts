// Bundles a Lambda handler (TypeScript, ESM) with esbuild at `pulumi up` time into one .mjs file
// plus its source map, so the function ships exactly the pinned SDK and weights code it was tested with.
import * as pulumi from '@pulumi/pulumi';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export interface Bundle {
  code: string;
  sourceMap: string;
}

/** Where a handler's source lies: `handlers/<name>.ts` beside this file. */
export const handlerEntry = (name: string): string => fileURLToPath(new URL(`./handlers/${name}.ts`, import.meta.url));

/** Bundles one entry for the Node.js 24 Lambda runtime. Deterministic: the same sources give the same text. */
export async function bundleHandler(entry: string): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    outfile: 'index.mjs',
    write: false,
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    legalComments: 'none',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    // Some bundled CommonJS modules call require() for Node built-ins, which ESM output lacks.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  const code = result.outputFiles.find((f) => f.path.endsWith('.mjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.mjs.map'));
  if (!code || !map) throw new Error(`esbuild produced no bundle for ${entry}`);
  return { code: code.text, sourceMap: map.text };
}

/** A Lambda code archive for handler `name` (file index.mjs, handler `index.handler`). */
export function handlerArchive(name: string): pulumi.Output<pulumi.asset.AssetArchive> {
  return pulumi.output(bundleHandler(handlerEntry(name))).apply(
    (bundle) =>
      new pulumi.asset.AssetArchive({
        'index.mjs': new pulumi.asset.StringAsset(bundle.code),
        'index.mjs.map': new pulumi.asset.StringAsset(bundle.sourceMap),
      }),
  );
}
