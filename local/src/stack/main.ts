// `npm start`: the whole voice pipeline on this machine (Kokoro server, local SageMaker router,
// agent, web page) on loopback, or the page alone in front of a deployed AgentCore runtime.
// Ctrl-C (SIGINT) or SIGTERM shuts everything down cleanly.
import { UsageError, parseLocalOptions, USAGE } from './options.ts';
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

  console.log('');
  console.log(`  LLM     ${stack.info.llm.description}`);
  console.log(`  Speech  ${stack.info.model.description}`);
  console.log(`  Agent   ${stack.info.target.description}`);
  if (stack.info.region) console.log(`  Region  ${stack.info.region.name} (${stack.info.region.source})`);
  if (stack.info.llm.name === 'echo') {
    console.log('');
    console.log('  Note: the echo model is in use, so answers repeat your prompt. For a real LLM: --llm bedrock');
    console.log('  (AWS credentials) or --llm openai (OPENAI_BASE_URL, OPENAI_MODEL).');
  }
  // The URL line comes last: scripts and tests wait for it, and then everything above is out.
  console.log('');
  console.log(`  Open ${stack.url} in your browser. Ctrl-C stops.`);

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
