// Container entry point: `node src/main.ts [serve]` (SageMaker runs `docker run IMAGE serve`).
import { ConfigError, configFromEnv } from './config.ts';
import { createLogger } from './log.ts';
import { startKokoroServer } from './server/index.ts';
import { handleShutdownSignals } from '@kokoro-speech/protocol/server';

const args = process.argv.slice(2);
if (args.length > 0 && !(args.length === 1 && args[0] === 'serve')) {
  console.error(`usage: main.ts [serve]; got ${args.join(' ')}`);
  process.exit(2);
}

let config;
try {
  config = configFromEnv();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`kokoro server: ${error.message}\nSee container/README.md for the environment variables.`);
  process.exit(2);
}
const log = createLogger(config.logLevel);
const server = await startKokoroServer({ config, log });
server.ready.catch(() => {
  log.flush();
  process.exit(1);
});

handleShutdownSignals({
  close: () => server.close(),
  onSignal: (signal) => log.info({ signal }, 'shutting down'),
  onClosed: () => log.flush(),
  onError: (error) => log.error({ err: error }, 'shutdown failed'),
});
