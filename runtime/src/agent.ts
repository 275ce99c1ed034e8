// Builds the agent from its configuration: the LLM provider, the TTS transport and the server.
import { createSpeechToText } from './stt/create.ts';
import { SileroVad } from './stt/silero-vad.ts';
import { createLogger, type Logger } from '@kokoro-speech/protocol/server';
import type { AgentConfig } from './config.ts';
import { createLlmProvider } from './llm/index.ts';
import { createTransport } from './tts/index.ts';
import { startAgentServer, type AgentServer } from './server/index.ts';
import { openSessionStore } from './conversation/storage.ts';
import { startTracing, tracesExporter, tracesUrl } from '@kokoro-speech/protocol/observability';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { XRayOtlpExporter, xrayRegion } from './observability/xray-exporter.ts';

export async function startAgentFromConfig(config: AgentConfig, logger?: Logger): Promise<AgentServer> {
  const log = logger ?? createLogger('kokoro-agent', config.logLevel);
  // The clients' own per-attempt waits fit the first-token timeout (llm/retries.ts).
  const firstTokenMs = config.llmTimeouts?.firstTokenMs;
  const llm = createLlmProvider(
    firstTokenMs === undefined || config.llm.provider === 'echo'
      ? config.llm
      : { ...config.llm, timeoutMs: firstTokenMs },
  );
  if (llm.name === 'echo')
    log.warn({ llm: llm.description }, 'LLM_PROVIDER=echo: answers repeat the prompt (no LLM in use)');
  else log.info({ llm: llm.description }, 'LLM');
  const tts = createTransport(config.tts);
  log.info({ tts: tts.name, ...ttsTarget(config) }, 'TTS');
  if (config.tools?.builtin) log.info({ tools: config.tools.builtin }, 'built-in tools');
  const { store, ...sessions } = config.sessions ?? {};
  if (store)
    log.info({ store: store.kind === 'file' ? store.dir : `s3://${store.bucket}/${store.prefix}` }, 'session store');
  // Traces (OTEL_*): off, the no-op API, unless an exporter or an endpoint is configured.
  // CloudWatch's X-Ray endpoint takes only SigV4-signed requests: signed with the default credentials.
  const url = tracesUrl(config.otel);
  const region = tracesExporter(config.otel) === 'otlp' ? xrayRegion(url) : null;
  const tracing = startTracing(config.otel, {
    serviceName: 'kokoro-agent',
    warn: (message) => log.warn(message),
    ...(region ? { exporter: new XRayOtlpExporter({ url, region, credentials: defaultProvider() }) } : {}),
  });
  if (tracing.enabled) log.info({ traces: tracing.destination }, 'tracing on');
  if (config.metrics) log.info({ metrics: 'emf', ...config.metrics }, 'turn metrics');
  // Speech in: the STT client now (the local model loads its weights at its first stream), a
  // Silero VAD per voice session.
  const stt = config.stt ? await createSpeechToText(config.stt) : undefined;
  if (stt) log.info({ stt: stt.name }, 'STT');
  const server = await startAgentServer({
    ...(stt
      ? { voice: { stt, createVad: () => SileroVad.load(), ...(config.voice ? { options: config.voice } : {}) } }
      : {}),
    observability: {
      ...(tracing.enabled ? { tracer: tracing.tracer } : {}),
      ...(config.metrics ? { metrics: config.metrics } : {}),
    },
    llm,
    tts,
    defaults: config.defaults,
    limits: config.limits,
    systemPrompt: config.systemPrompt,
    host: config.host,
    port: config.port,
    logger: log,
    ...(config.tools ? { tools: config.tools } : {}),
    sessions: { ...sessions, ...(store ? { storage: openSessionStore(store) } : {}) },
    ...(config.allowedOrigins ? { allowedOrigins: config.allowedOrigins } : {}),
    ...(config.llmTimeouts ? { llmTimeouts: config.llmTimeouts } : {}),
    ...(config.flow ? { flow: config.flow } : {}),
    ...(config.wsFrames ? { wsFrames: config.wsFrames } : {}),
    ...(config.streams ? { streams: config.streams } : {}),
  });
  // Spans still queued are exported before the process ends.
  return { ...server, close: () => server.close().finally(() => tracing.shutdown()) };
}

function ttsTarget(config: AgentConfig): Record<string, string> {
  const t = config.tts;
  if (t.kind === 'websocket') return { url: t.url };
  return { endpoint: t.endpointName, region: t.region, ...(t.endpoint ? { runtime_url: t.endpoint } : {}) };
}
