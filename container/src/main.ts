// Container entry point: `node src/main.ts [serve]` (SageMaker runs `docker run IMAGE serve`).
import { configFromEnv } from './config.ts';
import { createLogger } from './log.ts';
import { startKokoroServer } from './server/index.ts';

const args = process.argv.slice(2);
if (args.length > 0 && !(args.length === 1 && args[0] === 'serve')) {
  console.error(`usage: main.ts [serve]; got ${args.join(' ')}`);
  process.exit(2);
}

let config;
try {
  config = configFromEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const log = createLogger(config.logLevel);
const server = await startKokoroServer({ config, log });
server.ready.catch(() => {
  log.flush();
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (error) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
