// The container's life as a process: read the environment, check the lexicon, start the server,
// shut down on SIGTERM. main.ts (what SageMaker runs) calls it as is; the benchmarks' entry
// (src/testing/bench-main.ts) adds its simulated GPU delay and scheduling order.
import { ConfigError, configFromEnv } from './config.ts';
import { startKokoroServer, type KokoroServerDeps } from './server/index.ts';
import { handleShutdownSignals, createLogger } from '@kokoro-speech/protocol/server';
import { Lexicon, LexiconError, type LexiconEntry } from './pronunciation/lexicon.ts';
import { loadLexicon, readSymbols } from './pronunciation/lexicon-source.ts';
import { startTracing, type Tracing } from '@kokoro-speech/protocol/observability';

/** A benchmark's additions to the server it runs (none in production). */
export type ServeExtras = Pick<KokoroServerDeps, 'wrapEngine' | 'schedulingPolicy'>;

export async function serve(extras: ServeExtras = {}): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length > 0 && !(args.length === 1 && args[0] === 'serve')) {
    console.error(`usage: main.ts [serve]; got ${args.join(' ')}`);
    process.exit(2);
  }

  let config;
  let tracing: Tracing;
  try {
    config = configFromEnv();
    // Standard OTEL_* variables; off (the no-op tracer) unless an exporter or endpoint is set.
    tracing = startTracing(process.env, {
      serviceName: 'kokoro-tts',
      warn: (message) => log.warn(message), // later, on an export: the logger exists by then
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`kokoro server: ${error.message}\nSee container/README.md for the environment variables.`);
    process.exit(2);
  }
  // The lexicon is read and checked against the model's symbols before anything starts: a bad one
  // stops the container at once, named, like a bad variable.
  let lexicon: LexiconEntry[] | undefined;
  if (config.lexicon) {
    try {
      lexicon = await loadLexicon(config.lexicon);
      const symbols = await readSymbols(config.modelDir);
      if (symbols) new Lexicon(lexicon, symbols, config.lexicon);
    } catch (error) {
      if (!(error instanceof LexiconError)) throw error;
      console.error(
        `kokoro server: ${error.message}\nSee container/README.md (Pronunciation) for the lexicon's format.`,
      );
      process.exit(2);
    }
  }
  const log = createLogger('kokoro-server', config.logLevel);
  const server = await startKokoroServer({ config, log, tracing, ...extras, ...(lexicon ? { lexicon } : {}) });
  if (tracing.enabled) log.info({ traces: tracing.destination }, 'tracing on');
  server.ready.catch(() => {
    log.flush();
    process.exit(1);
  });

  handleShutdownSignals({
    close: () => server.close().finally(() => tracing.shutdown()), // queued spans go out before exit
    onSignal: (signal) => log.info({ signal }, 'shutting down'),
    onClosed: () => log.flush(),
    onError: (error) => log.error({ err: error }, 'shutdown failed'),
  });
}
