// Test helper: runs a dynamic provider's `create` the way `pulumi up` does: the provider
// serialized by Pulumi's closure serialization, loaded from that text (require-from-string, as
// Pulumi's provider host loads it) in a fresh Node process with only the given environment.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `module` is the provider's file, relative to `cwd`, and `exported` the name it exports the
 * provider under. Resolves with the exit code and output (a failed create exits non-zero).
 */
export async function createInFreshProcess(args: {
  cwd: string;
  module: string;
  exported: string;
  inputs: unknown;
  env: Record<string, string | undefined>;
}): Promise<ProcessResult> {
  const script = `
    import * as pulumi from '@pulumi/pulumi';
    import { createRequire } from 'node:module';
    const { ${args.exported}: exported } = await import(${JSON.stringify(args.module)});
    const { text } = await pulumi.runtime.serializeFunction(() => exported, { allowSecrets: true });
    const provider = createRequire(import.meta.url)('require-from-string')(text).handler();
    process.stdout.write(JSON.stringify(await provider.create(${JSON.stringify(args.inputs)})));`;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: args.cwd,
      env: { PATH: process.env['PATH'], ...args.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as ProcessResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The `{"id": ..., "outs": ...}` a successful create printed last. */
export const createdResult = (stdout: string): { id: string; outs: Record<string, unknown> } =>
  JSON.parse(stdout.slice(stdout.lastIndexOf('{"id"')));
