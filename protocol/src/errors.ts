// The one error shape every package of the project raises and answers with: a stable `code`
// (each package's codes are listed in its README), a message that names the problem, the HTTP
// status it maps to when it is answered over HTTP, and whether trying again can help (`retryable`,
// as livekit/agents' APIError: a caller's retry loop reads only this). Subclasses narrow `code`
// and add what their callers need (a Retry-After, an AWS error's original status).

export interface ErrorOptions {
  /** The HTTP status this error is answered with (undefined: not an HTTP error). */
  status?: number | undefined;
  /** Whether the same request may succeed if tried again (default false). */
  retryable?: boolean | undefined;
  cause?: unknown;
}

export class KokoroError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(code: Code, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}

/** A mistake in a command line: the command prints the message and its usage, and exits 2. */
export class UsageError extends KokoroError<'usage'> {
  constructor(message: string) {
    super('usage', message);
  }
}

/** The message of anything thrown (an Error's message, else the value as text). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
