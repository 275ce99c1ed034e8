// Entry point of the agent (AgentCore Runtime container, or `npm run -w runtime start`): reads the
// environment, serves on PORT (8080), shuts down cleanly on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config.ts';
import { startAgentFromConfig } from './agent.ts';
import { handleShutdownSignals, createLogger } from '@kokoro-speech/protocol/server';

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`kokoro-speech agent: ${error.message}\nSee runtime/README.md for the environment variables.`);
  process.exit(2);
}
const log = createLogger('kokoro-agent', config.logLevel);
const server = await startAgentFromConfig(config, log);

handleShutdownSignals({
  close: () => server.close(),
  onSignal: (signal) => log.info({ signal }, 'shutting down'),
  onError: (error) => log.error({ err: error }, 'shutdown failed'),
});
