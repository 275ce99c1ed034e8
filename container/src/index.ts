// Public API of @kokoro-speech/container: start the Kokoro inference server in-process (runtime
// tests and the offline local mode run it on 127.0.0.1:0 with the stand-in model).
import type { Tracing } from '@kokoro-speech/protocol/observability';
import { defaultConfig, type ServerConfig } from './config.ts';
import type { Engine } from './engine/types.ts';
import { createLogger, type Logger } from '@kokoro-speech/protocol/server';
import { startKokoroServer } from './server/index.ts';
import { BIDI_PATH } from '@kokoro-speech/protocol';

export type { ServerConfig } from './config.ts';
export { configFromEnv } from './config.ts';
export type { Engine, PreparedPiece } from './engine/types.ts';

export interface StartServerOptions {
  /** Model folder to load (e.g. one written by writeFixtureModel); ignored when `engine` is given. */
  modelDir?: string;
  /** An already loaded engine, or its loading promise (the server answers /ping 503 until it resolves). */
  engine?: Engine | Promise<Engine>;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Any other setting (limits, admission, ...); defaults as in the README's env table, except
   *  `admission` ('off') and `metricsIntervalMs` (0) here. */
  config?: Partial<ServerConfig>;
  /** Default 'silent'; or pass your own pino logger. */
  logLevel?: ServerConfig['logLevel'];
  logger?: Logger;
  /** Resolve only once the model is loaded and warmed up (default true). */
  waitUntilReady?: boolean;
  /** Where the load metric lines go when `config.metricsIntervalMs` > 0 (default stdout). */
  writeMetrics?: (line: string) => void;
  /** Spans per utterance under the client's `traceparent` (startTracing of @kokoro-speech/protocol/observability); default off. */
  tracing?: Tracing;
  /** Wraps the loaded engine (tests and benchmarks: @kokoro-speech/container/testing's withSimulatedDelay). */
  wrapEngine?: (engine: Engine) => Engine;
}

export interface RunningServer {
  /** http://host:port */
  url: string;
  /** ws://host:port/invocations-bidirectional-stream */
  wsUrl: string;
  port: number;
  /** Settles when the model is loaded and warmed up. */
  ready: Promise<void>;
  /** Graceful shutdown; resolves when the server and the engine are closed. */
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const config = defaultConfig({
    logLevel: options.logLevel ?? 'silent',
    // In-process servers (tests, tools) admit everything and print no metric lines unless asked:
    // their callers open many short or idle sessions on a shared CPU. The container process
    // (src/main.ts, what SageMaker runs) reads ADMISSION and METRICS_INTERVAL_S (default on, 60 s).
    admission: 'off',
    metricsIntervalMs: 0,
    ...options.config,
    host,
    port: options.port ?? 0,
    ...(options.modelDir ? { modelDir: options.modelDir } : {}),
  });
  const log = options.logger ?? createLogger('kokoro-server', config.logLevel);
  const server = await startKokoroServer({
    config,
    log,
    ...(options.engine ? { engine: options.engine } : {}),
    ...(options.writeMetrics ? { writeMetrics: options.writeMetrics } : {}),
    ...(options.tracing ? { tracing: options.tracing } : {}),
    ...(options.wrapEngine ? { wrapEngine: options.wrapEngine } : {}),
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const running: RunningServer = {
    url: `http://${urlHost}:${server.port}`,
    wsUrl: `ws://${urlHost}:${server.port}${BIDI_PATH}`,
    port: server.port,
    ready: server.ready,
    close: () => server.close(),
  };
  if (options.waitUntilReady ?? true) {
    try {
      await server.ready;
    } catch (error) {
      await server.close();
      throw error;
    }
  }
  return running;
}
