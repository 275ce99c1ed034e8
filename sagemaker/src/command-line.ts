// What this workspace's two commands (sagemaker-local, bidi-smoke) do with their arguments alike:
// a mistake prints its message and the usage and exits 2; --help prints the usage and exits 0.

import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { UsageError } from '@kokoro-speech/protocol/errors';

export { UsageError };

/** `parse(argv)`, or the process exits: 2 on a UsageError, 0 when `parse` returns null (--help). */
export function argumentsOrExit<T>(command: string, usage: string, parse: (argv: string[]) => T | null): T {
  let parsed: T | null;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${command}: ${error.message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed === null) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/** node:util parseArgs over `args`, its own errors (an unknown option, a missing value) as usage errors. */
export function parseFlags<const T extends ParseArgsOptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({ args, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
