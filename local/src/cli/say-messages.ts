// What `npm run say` tells the user when a command cannot work: bad options named by their flag
// with the allowed values, a refused connection with the likely cause (no `npm start` running),
// and where the WAV file goes (relative to the folder the command was typed in, not npm's).
import { isAbsolute, resolve } from 'node:path';
import { MAX_SPEED, MAX_VOICE_CHARS, MIN_SPEED, SAMPLE_RATES, SPOKEN_LANGUAGES } from '@kokoro-speech/protocol';
import { UsageError } from '@kokoro-speech/protocol/errors';

/** Bad usage: say prints the message and its usage, and exits with status 2. */
export { UsageError };

/** node:util parseArgs errors (unknown option, missing value) are usage errors. */
export function isParseArgsError(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown })?.code === 'string' &&
    (error as { code: string }).code.startsWith('ERR_PARSE_ARGS')
  );
}

const FLAGS: Record<string, string> = {
  sample_rate: `--sample-rate must be one of ${SAMPLE_RATES.join(', ')}`,
  speed: `--speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}`,
  voice: `--voice must be a voice id or a blend such as af_bella(2)+af_sky(1) (1 to ${MAX_VOICE_CHARS} characters)`,
  mode: '--mode must be stream or batch',
  language: `--language must be one of ${SPOKEN_LANGUAGES.join(', ')} (ja and zh are not spoken here)`,
  prompt: 'the prompt must be 1 to 20000 characters',
};

/** The turn request's validation issues, each as the flag that set the field and what it takes. */
export function describeRequestIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  given: Record<string, string | undefined>,
): string {
  return issues
    .map((issue) => {
      const field = String(issue.path[0] ?? '');
      const rule = FLAGS[field];
      if (rule === undefined) return `${field}: ${issue.message}`;
      // A malformed blend: the schema's message names the position.
      if (field === 'voice' && issue.message.startsWith('voice blend')) return `--voice: ${issue.message}`;
      const value = given[field];
      return value === undefined ? rule : `${rule}, not ${value}`;
    })
    .join('; ');
}

/** The error's network code, looking through causes (fetch and ws wrap the socket's error). */
function networkCode(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    for (const inner of (e as { errors?: unknown[] }).errors ?? []) {
      const c = (inner as { code?: unknown }).code;
      if (typeof c === 'string') return c;
    }
  }
  return undefined;
}

/** A hint for a failed turn when the target was not there at all; null for other failures. */
export function connectionHint(error: unknown, target: string): string | null {
  const code = networkCode(error);
  if (code === 'ECONNREFUSED')
    return (
      `nothing answers at ${target} (connection refused). Is npm start running? Start it in another terminal ` +
      `(npm start), or pass --target with the address it printed.`
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `cannot resolve the host of ${target} (${code}): check --target.`;
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `cannot reach ${target} (${code}): check --target and the network.`;
  return null;
}

/**
 * Where the WAV goes: a relative --out is taken from the folder the command was typed in (npm runs
 * scripts from the package root, and says where the user was in INIT_CWD), not from the repository root.
 */
export function outputPath(out: string, env: NodeJS.ProcessEnv = process.env): string {
  return isAbsolute(out) ? out : resolve(env['INIT_CWD'] || process.cwd(), out);
}
