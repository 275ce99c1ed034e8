// The Kokoro server's life: listen first (the routes, http-routes.ts, and the bidirectional
// upgrade, bidi-upgrade.ts, answer 503 meanwhile), then load and warm the model and open for
// work; on close (SIGTERM via main.ts) stop accepting, let in-flight audio finish within
// SHUTDOWN_GRACE_MS, then close every connection and the engine.
import { UtteranceSpans } from '../observability/utterance-spans.ts';
import type { Tracing } from '@kokoro-speech/protocol/observability';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@kokoro-speech/protocol/server';
import { isVoiceBlend, voiceProblem } from '@kokoro-speech/protocol';
import type { ServerConfig } from '../config.ts';
import { loadKokoroEngine } from '../engine/index.ts';
import type { Engine } from '../engine/types.ts';
import type { SchedulingPolicy } from '../scheduler/index.ts';
import { LoadMetrics } from '../metrics/load-metrics.ts';
import { SpeechError } from '../tts/errors.ts';
import { SpeechService } from '../tts/speech-service.ts';
import { BidiUpgrade } from './bidi-upgrade.ts';
import { httpRoutes } from './http-routes.ts';
import type { ServerState } from './server-state.ts';
import { warmUp } from './warm-up.ts';
import { Lexicon, type LexiconEntry } from '../pronunciation/lexicon.ts';
import { loadLexicon } from '../pronunciation/lexicon-source.ts';

export interface KokoroServer {
  /** Bound port (useful with port 0). */
  port: number;
  /** Resolves once the model is loaded and warmed up (/ping answers 200); rejects if loading fails. */
  ready: Promise<void>;
  /** Graceful shutdown: stop accepting, let in-flight audio finish (up to shutdownGraceMs), exit. */
  close(): Promise<void>;
}

export interface KokoroServerDeps {
  config: ServerConfig;
  log: Logger;
  /** An engine (or its loading) to use instead of loading config.modelDir. */
  engine?: Engine | Promise<Engine>;
  /** The lexicon's entries, already read (main.ts); default: read config.lexicon, if set. */
  lexicon?: LexiconEntry[];
  /** Where the load metric lines (Embedded Metric Format) go; default stdout. */
  writeMetrics?: (line: string) => void;
  /** Tracing (from OTEL_*): per utterance, spans under the client's `traceparent`; default off. */
  tracing?: Tracing;
  /** Wraps the loaded engine (a benchmark's simulated GPU delay, src/testing/simulated-delay.ts). */
  wrapEngine?: (engine: Engine) => Engine;
  /** The model runs' order; default the playback deadline (a benchmark passes fifo). */
  schedulingPolicy?: SchedulingPolicy;
}

export async function startKokoroServer({
  config,
  log,
  engine: given,
  lexicon: entries,
  writeMetrics = (line) => void process.stdout.write(`${line}\n`),
  tracing,
  wrapEngine = (loaded) => loaded,
  schedulingPolicy,
}: KokoroServerDeps): Promise<KokoroServer> {
  const bootStarted = performance.now();
  const state: ServerState = { service: undefined, closing: false, startedAt: Date.now() };
  const timers: NodeJS.Timeout[] = [];

  const http = createServer(httpRoutes(state, log, config.apiKey));
  http.headersTimeout = 10_000;
  http.requestTimeout = 0; // a long answer streams for as long as it speaks
  const bidi = new BidiUpgrade(state, config);
  http.on('upgrade', (req, socket, head) => bidi.handle(req, socket, head));

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  log.info({ stage: 'listen', port, ms: Math.round(performance.now() - bootStarted) }, 'startup stage');

  let engine: Engine | undefined;
  const ready = (async () => {
    const loaded = await (given ??
      loadKokoroEngine({
        modelDir: config.modelDir,
        dtype: config.dtype,
        device: config.device,
        ...(config.prepWorkers ? { prepWorkers: config.prepWorkers } : {}),
        onStage: (stage, ms) => log.info({ stage, ms }, 'startup stage'),
        onWarning: (message, detail) => log.warn(detail, message),
      }));
    engine = wrapEngine(loaded);
    if (!engine.hasVoice(config.defaultVoice)) {
      throw new SpeechError(
        'unknown_voice',
        `KOKORO_VOICE "${config.defaultVoice}" is not among the voices` +
          // A blend: which part, or where its syntax breaks.
          `${isVoiceBlend(config.defaultVoice) ? ` (${voiceProblem(config.defaultVoice, engine.voices)?.message})` : ''}: ${engine.voices.join(', ')}`,
      );
    }
    // A lexicon the model cannot say stops start-up, naming the entry (LexiconError).
    const lexiconEntries = entries ?? (config.lexicon ? await loadLexicon(config.lexicon) : []);
    const lexicon = lexiconEntries.length > 0 ? new Lexicon(lexiconEntries, engine.symbols, config.lexicon) : undefined;
    if (lexicon) log.info({ lexicon: config.lexicon, entries: lexicon.size }, 'lexicon loaded');
    const t0 = performance.now();
    const candidate = new SpeechService(engine, config, log, lexicon, schedulingPolicy);
    if (tracing?.enabled) candidate.spans = new UtteranceSpans(tracing.tracer);
    await warmUp(engine, config.defaultVoice, candidate.prepScheduler.concurrency, (ms, audioMs) =>
      candidate.observeRun(ms, audioMs),
    );
    log.info({ stage: 'warm_up', ms: Math.round(performance.now() - t0) }, 'startup stage');
    if (state.closing) return;
    state.service = candidate;
    // Keeps the admission window's samples current between decisions.
    timers.push(setInterval(() => candidate.admission.tick(), 1000).unref());
    if (config.metricsIntervalMs > 0) {
      const metrics = new LoadMetrics({
        admission: candidate.admission,
        namespace: config.metricsNamespace,
        dimensions: config.metricsDimensions,
        write: writeMetrics,
        now: () => candidate.now(),
      });
      timers.push(setInterval(() => metrics.flush(), config.metricsIntervalMs).unref());
    }
    log.info(
      {
        stage: 'ready',
        ms: Math.round(performance.now() - bootStarted),
        voices: engine.voices.length,
        wordTimings: engine.wordTimings ?? 'estimate',
        maxConcurrentRuns: config.maxConcurrentRuns,
      },
      'startup stage',
    );
  })();
  ready.catch((error) => log.fatal({ err: error }, 'model failed to load'));

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      state.closing = true;
      for (const timer of timers) clearInterval(timer);
      const t0 = performance.now();
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      const { service } = state;
      if (service) {
        service.draining = true;
        const deadline = performance.now() + config.shutdownGraceMs;
        while (service.pendingTotal > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        bidi.terminateSessions();
        await service.scheduler.whenIdle();
      }
      http.closeAllConnections();
      bidi.terminateSockets();
      await stopped;
      await ready.catch(() => {});
      await engine?.close();
      log.info({ stage: 'shutdown', ms: Math.round(performance.now() - t0) }, 'server stopped');
    })());

  return { port, ready, close };
}
