// A start-up problem the user fixes by changing the command or its environment (a flag, a
// variable, credentials, a folder, a port). `npm start` prints its message alone, with no usage
// text and no stack trace, and exits with status 2; the message names the fix.
export class StartupError extends Error {
  override name = 'StartupError';
}
