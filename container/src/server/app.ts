// The HTTP + WebSocket server: /ping, POST /invocations, the bidirectional stream, start-up
// (listen first, then load and warm the model) and graceful shutdown.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { ServerConfig } from '../config.ts';
import { loadKokoroEngine } from '../engine/index.ts';
import type { Engine } from '../engine/types.ts';
import { refuseUpgrade, type Logger } from '@kokoro-speech/protocol/server';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import { BidiSession } from './bidi-session.ts';
import { SpeechError } from '../tts/errors.ts';
import { handleInvocation, sendError } from './invocations.ts';
import {
  handleOpenAIModels,
  handleOpenAISpeech,
  handleVoiceList,
  OpenAIError,
  sendOpenAIError,
} from './openai-speech.ts';
import { withSimulatedDelay } from '../engine/simulated-delay.ts';
import { SpeechService } from '../tts/speech-service.ts';
import type { Refused } from '../admission/index.ts';
import { LoadMetrics } from '../metrics/load-metrics.ts';

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
  /** Where the load metric lines (Embedded Metric Format) go; default stdout. */
  writeMetrics?: (line: string) => void;
}

const OPENAI_ROUTES: Record<string, { method: string }> = {
  '/v1/audio/speech': { method: 'POST' },
  '/v1/models': { method: 'GET' },
  '/v1/audio/voices': { method: 'GET' },
};

export async function startKokoroServer({
  config,
  log,
  engine: given,
  writeMetrics = (line) => void process.stdout.write(`${line}\n`),
}: KokoroServerDeps): Promise<KokoroServer> {
  const bootStarted = performance.now();
  const startedAt = Date.now();
  let service: SpeechService | undefined;
  let closing = false;
  const sessions = new Set<BidiSession>();
  const timers: NodeJS.Timeout[] = [];

  const http = createServer((req, res) => {
    route(req, res).catch((error) => {
      log.error({ err: error }, 'unhandled request error');
      sendError(res, new SpeechError('internal', 'internal error'));
    });
  });
  http.headersTimeout = 10_000;
  http.requestTimeout = 0; // a long answer streams for as long as it speaks

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/ping' && (req.method === 'GET' || req.method === 'HEAD')) {
      const ok = service !== undefined && !closing;
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ status: ok ? 'healthy' : closing ? 'stopping' : 'loading' }));
    }
    if (path === '/invocations' && req.method === 'POST') {
      if (!service) return sendError(res, new SpeechError('overloaded', 'the model is still loading', 5));
      // Decided before the body is read: a refusal costs no parsing (a flood stays cheap).
      const decision = service.admission.admit('request');
      if (!decision.admitted) {
        logRefusal('POST /invocations', decision);
        res.setHeader('connection', 'close'); // the unread body is not worth reading
        return sendError(res, new SpeechError('overloaded', decision.message, decision.retryAfterS));
      }
      res.once('close', decision.release);
      decision.speaking(); // its text is queued as soon as the body is read
      return handleInvocation(req, res, service, randomUUID());
    }
    // The OpenAI-compatible API (running the container yourself; SageMaker does not route here).
    const openai = OPENAI_ROUTES[path ?? ''];
    if (openai) {
      if (req.method !== openai.method) {
        return sendOpenAIError(res, new OpenAIError(405, `use ${openai.method} ${path}`, null, 'method_not_allowed'));
      }
      if (!service || closing) {
        const why = closing ? 'the server is shutting down' : 'the model is still loading';
        return sendOpenAIError(res, new OpenAIError(503, why, null, 'overloaded', 'server_error'));
      }
      if (path === '/v1/audio/speech') {
        // Synthesis work like POST /invocations: admitted or refused before the body is read.
        const decision = service.admission.admit('request');
        if (!decision.admitted) {
          logRefusal('POST /v1/audio/speech', decision);
          res.setHeader('connection', 'close');
          return sendOpenAIError(
            res,
            new OpenAIError(503, decision.message, null, 'overloaded', 'server_error', decision.retryAfterS),
          );
        }
        res.once('close', decision.release);
        decision.speaking();
        return handleOpenAISpeech(req, res, service);
      }
      if (path === '/v1/models') return handleOpenAIModels(res, startedAt);
      return handleVoiceList(res, service);
    }
    const known = path === '/ping' || path === '/invocations';
    res.writeHead(known ? 405 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'invalid_message', message: `no route for ${req.method} ${path}` } }));
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxWsMessageBytes * 4 });
  http.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== BIDI_PATH) return refuseUpgrade(socket, 404);
    if (!service || closing) return refuseUpgrade(socket, 503);
    const svc = service;
    // Admission before the upgrade: a refused session costs one HTTP response, no WebSocket.
    const decision = svc.admission.admit('session');
    if (!decision.admitted) {
      logRefusal('websocket', decision);
      const body = JSON.stringify(new SpeechError('overloaded', decision.message, decision.retryAfterS).body);
      return refuseUpgrade(socket, 503, {
        body,
        headers: { 'content-type': 'application/json', 'retry-after': decision.retryAfterS },
      });
    }
    socket.once('close', decision.release);
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (sessions.size >= config.maxSessions) {
        ws.send(
          JSON.stringify({
            type: 'error',
            id: null,
            code: 'overloaded',
            message: `the server has ${sessions.size} sessions open (MAX_SESSIONS=${config.maxSessions}); retry later`,
            retry_after_s: 1,
          }),
        );
        ws.close(1013, 'too many sessions');
        return;
      }
      const session = new BidiSession(ws, svc, randomUUID(), decision);
      sessions.add(session);
      void session.closed.then(() => sessions.delete(session));
    });
  });

  function logRefusal(route: string, decision: Refused): void {
    log.debug({ route, rule: decision.rule, retryAfterS: decision.retryAfterS, err: decision.message }, 'refused');
  }

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
    engine = withSimulatedDelay(loaded, config.simulatedDelayMs, config.simulatedDelayPerCharMs);
    if (!engine.hasVoice(config.defaultVoice)) {
      throw new Error(`KOKORO_VOICE "${config.defaultVoice}" is not among the voices: ${engine.voices.join(', ')}`);
    }
    const t0 = performance.now();
    const candidate = new SpeechService(engine, config, log);
    await warmUp(engine, config.defaultVoice, candidate.prepScheduler.concurrency, (ms, audioMs) =>
      candidate.observeRun(ms, audioMs),
    );
    log.info({ stage: 'warm_up', ms: Math.round(performance.now() - t0) }, 'startup stage');
    if (closing) return;
    service = candidate;
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
        scheduler: config.scheduler,
        maxConcurrentRuns: config.maxConcurrentRuns,
      },
      'startup stage',
    );
  })();
  ready.catch((error) => log.fatal({ err: error }, 'model failed to load'));

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      const t0 = performance.now();
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      if (service) {
        service.draining = true;
        const deadline = performance.now() + config.shutdownGraceMs;
        while (service.pendingTotal > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        for (const session of sessions) session.terminate();
        await service.scheduler.whenIdle();
      }
      http.closeAllConnections();
      for (const ws of wss.clients) ws.terminate();
      await stopped;
      await ready.catch(() => {});
      await engine?.close();
      log.info({ stage: 'shutdown', ms: Math.round(performance.now() - t0) }, 'server stopped');
    })());

  return { port, ready, close };
}

// Text preparation (espeak-ng in WASM, kokoro-js normalisation) runs 10-30x slower for its first
// few calls in each worker while V8 compiles it, so every worker gets a few varied texts; then one
// discarded model run, as /ping promises.
const WARM_UP_TEXTS = [
  'Warming up the model.',
  'The total is $12.50, due on May 5th at 3:45 pm; call 555-0100 with questions.',
  "Dr. Smith's team shipped 1,024 units, which is 12% more than last year's order!",
];

async function warmUp(
  engine: Engine,
  voice: string,
  workers: number,
  observeRun: (ms: number, audioMs: number) => void,
): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        engine.prepare(WARM_UP_TEXTS[(i + round) % WARM_UP_TEXTS.length]!, voice),
      ),
    );
  }
  const [piece] = await engine.prepare(WARM_UP_TEXTS[0]!, voice);
  if (!piece) return;
  await engine.synthesize(piece, voice, 1);
  // A second run, past the first run's one-off initialisation, on a sentence of typical length
  // (a short one would overstate the per-run overhead): admission control's first estimate of
  // model time per audio second.
  const [typical] = await engine.prepare(WARM_UP_TEXTS[2]!, voice);
  if (!typical) return;
  const started = performance.now();
  const audio = await engine.synthesize(typical, voice, 1);
  observeRun(performance.now() - started, (audio.length / engine.sampleRate) * 1000);
}
