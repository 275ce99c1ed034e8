// Mistakes on a command line of ours (npm start, say) as usage errors with balanced messages.
import { UsageError, errorMessage } from '@kokoro-speech/protocol/errors';

/**
 * node:util parseArgs' error as a usage error of ours. Its message when positionals are allowed
 * leaves a quote open ("... as in '-- \"--x\""): that hint is said here instead, balanced, with
 * the command (`npm run say --`) it is about.
 */
export function commandLineError(error: unknown, command = 'npm start --'): UsageError {
  // Read as a shape: parseArgs' errors come from Node's own realm (not `instanceof Error` under jest).
  const own = (error as { message?: unknown } | null)?.message;
  const message = typeof own === 'string' ? own : errorMessage(error);
  const unknown = /^Unknown option '(.*?)'\. To specify a positional argument starting with a '-'/s.exec(message);
  if (!unknown) return new UsageError(message);
  const option = unknown[1]!;
  return new UsageError(
    `Unknown option '${option}' (an argument that starts with '-' goes last, after '--': ${command} -- ${JSON.stringify(option)})`,
  );
}
