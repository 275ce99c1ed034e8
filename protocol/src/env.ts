// Reading a process's environment variables, the one way every workspace's configuration module
// does it: zod fields (blank is unset, numbers checked against their range), and one ConfigError
// that names every bad variable, what it takes and what it got.
import { z } from 'zod';
import { KokoroError } from './errors.ts';

/** Bad configuration (environment variables): the message names each variable and what it takes. */
export class ConfigError extends KokoroError<'config'> {
  /** One line per bad variable, `NAME: must be ..., not "..."`, in the order found. */
  readonly problems: readonly string[];

  constructor(message: string, problems: readonly string[] = [message]) {
    super('config', message);
    this.problems = problems;
  }

  /** Every problem in one error. */
  static of(problems: readonly string[]): ConfigError {
    return new ConfigError(`invalid configuration: ${problems.join('; ')}`, problems);
  }
}

/** A blank variable counts as unset (`FOO= cmd` is how a shell unsets one for a command). */
export const unset = (value: unknown): unknown => (value === '' ? undefined : value);

const range = (min: number, max: number) =>
  max === Infinity ? `of at least ${min}` : min === -Infinity ? `of at most ${max}` : `from ${min} to ${max}`;

/** A whole number from `min` to `max` (inclusive). */
export function envInt(min: number, max = Infinity) {
  const takes = `must be a whole number ${range(min, max)}`;
  return z.coerce.number({ error: takes }).int({ error: takes }).min(min, { error: takes }).max(max, { error: takes });
}

/** A number from `min` to `max` (inclusive); `above` makes the lower bound exclusive. */
export function envNumber(min: number, max = Infinity, bound: 'inclusive' | 'above' = 'inclusive') {
  const takes =
    bound === 'above'
      ? `must be a number above ${min}${max === Infinity ? '' : ` and at most ${max}`}`
      : `must be a number ${range(min, max)}`;
  const n = z.coerce.number({ error: takes });
  return (bound === 'above' ? n.gt(min, { error: takes }) : n.min(min, { error: takes })).max(max, { error: takes });
}

/** One of a fixed set of words. */
export function envEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** Blank or absent: undefined; else the field. */
export const optional = <T extends z.ZodType>(field: T) => z.preprocess(unset, field.optional());
/** Blank or absent: the default; else the field. */
export const withDefault = <T extends z.ZodType>(field: T, value: z.output<T>) =>
  z.preprocess(unset, field.default(value as never));

const shown = (value: unknown): string => {
  const text = String(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
};

/**
 * The variables `schema` reads from `env`, parsed; or a ConfigError naming each bad one. `names`
 * renames variables in the messages (a command whose flag set the value names the flag).
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  names: Readonly<Record<string, string>> = {},
): z.output<S> {
  const parsed = schema.safeParse(env, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw ConfigError.of(
    parsed.error.issues.map((issue) => {
      const [variable, ...rest] = issue.path.map(String);
      const name = [names[variable ?? ''] ?? variable, ...rest].join('.');
      const given = typeof issue.input === 'string' ? issue.input : env[variable ?? ''];
      return `${name}: ${issue.message}${given === undefined ? '' : `, not ${shown(given)}`}`;
    }),
  );
}
