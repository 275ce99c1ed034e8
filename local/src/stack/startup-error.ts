// A start-up problem the user fixes by changing the command or its environment (a flag, a
// variable, credentials, a folder, a port). `npm start` prints its message alone, with no usage
// text and no stack trace, and exits with status 2; the message names the fix.
import { KokoroError } from '@kokoro-speech/protocol/errors';

export class StartupError extends KokoroError<'startup'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('startup', message, options);
  }
}
