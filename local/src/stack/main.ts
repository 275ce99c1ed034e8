// `npm start`: the whole voice pipeline on this machine (Kokoro server, local SageMaker router,
// agent, web page) on loopback, or the page alone in front of a deployed AgentCore runtime.
// Ctrl-C (SIGINT) or SIGTERM shuts everything down cleanly.
import { UsageError, parseLocalOptions, USAGE } from './options.ts';
import { bannerLines } from './banner.ts';
import { startLocalStack } from './stack.ts';
import { StartupError } from './startup-error.ts';
import { handleShutdownSignals } from '@kokoro-speech/protocol/server';
import { errorMessage } from '@kokoro-speech/protocol/errors';

async function main(): Promise<void> {
  const options = parseLocalOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  const starting = new AbortController();
  const onSignalWhileStarting = (): void => starting.abort(new Error('interrupted'));
  process.once('SIGINT', onSignalWhileStarting);
  process.once('SIGTERM', onSignalWhileStarting);
  const stack = await startLocalStack(options, { log: (line) => console.log(line), signal: starting.signal });
  process.off('SIGINT', onSignalWhileStarting);
  process.off('SIGTERM', onSignalWhileStarting);

  // The URL line comes last (bannerLines): scripts and tests wait for it.
  for (const line of bannerLines(stack.info, stack.url)) console.log(line);

  handleShutdownSignals({
    close: () => stack.close(),
    onSignal: (signal) => console.log(`\n${signal}: shutting down...`),
    onClosed: () => console.log('stopped'),
    onError: (err) => console.error(`shutdown failed: ${errorMessage(err)}`),
    onSecondSignal: () => console.log('stopping now'),
  });
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`npm start: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (err instanceof StartupError) {
    console.error(`npm start: ${err.message}`);
    process.exit(2);
  }
  console.error(`npm start: ${errorMessage(err)}`);
  process.exit(1);
});
