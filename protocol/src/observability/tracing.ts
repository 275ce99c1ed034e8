// OpenTelemetry tracing for the agent and the container, configured by the standard OTEL_*
// variables (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
// Off unless an exporter or an OTLP endpoint is configured: then the tracer is the API's no-op one
// and nothing is registered, so tracing costs nothing. On: a BatchSpanProcessor (its queue bounded
// by OTEL_BSP_MAX_QUEUE_SIZE, default 2048: spans beyond it are dropped, so an unreachable
// collector cannot grow memory) in front of the OTLP/HTTP (JSON) exporter, registered as the
// global provider (Strands' agent and model spans go through the global API) with an
// AsyncLocalStorage context manager (so they nest under the span active when the agent runs).
// A collector that cannot be reached is one warning per outage, never one per batch.
import { context, propagation, ROOT_CONTEXT, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type BufferConfig,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { ConfigError } from '../env.ts';

export type { Context, Span, Tracer };

type Env = Readonly<Record<string, string | undefined>>;

export interface Tracing {
  /** False: the no-op tracer, nothing registered, nothing exported. */
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** Where spans go (the OTLP traces URL, or `console`); null when off. */
  readonly destination: string | null;
  /** Exports what is queued now (tests, and before a process exits). */
  flush(): Promise<void>;
  /** Flushes, then unregisters the global provider (a later startTracing may register again). */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** service.name unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says otherwise. */
  serviceName: string;
  /** Where the one warning of an unreachable collector goes. */
  warn: (message: string) => void;
  /** Instead of the configured exporter (tests). */
  exporter?: SpanExporter;
  /** Register as the global provider (default true: Strands' spans use it). False: a second
   *  provider in the same process (npm start's in-process container, with its own service name). */
  register?: boolean;
}

const TRUE = /^true$/i;
const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim());

/** Which exporter OTEL_* asks for: none (off), otlp or console. Throws ConfigError for what we lack. */
export function tracesExporter(env: Env): 'none' | 'otlp' | 'console' {
  if (TRUE.test(env.OTEL_SDK_DISABLED ?? '')) return 'none';
  const named = (blank(env.OTEL_TRACES_EXPORTER) ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const unknown = named.filter((x) => !['none', 'otlp', 'console'].includes(x));
  if (unknown.length > 0) {
    throw ConfigError.of([`OTEL_TRACES_EXPORTER: must be otlp, console or none, not ${JSON.stringify(unknown[0])}`]);
  }
  if (named.includes('none')) return 'none';
  if (named.includes('console') && !named.includes('otlp')) return 'console';
  // Not named: on when an OTLP endpoint is configured (so setting the endpoint alone turns it on).
  const otlp =
    named.includes('otlp') || blank(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) || blank(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (!otlp) return 'none';
  checkUrl(tracesUrl(env));
  return 'otlp';
}

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw ConfigError.of([
      `OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT): must be an http(s):// URL, not ${JSON.stringify(url)}`,
    ]);
  }
}

/** The OTLP/HTTP traces URL the variables give (the spec's default: localhost:4318). */
export function tracesUrl(env: Env): string {
  const traces = blank(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traces) return traces;
  const base = blank(env.OTEL_EXPORTER_OTLP_ENDPOINT) ?? 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Only http/json is built in. Another protocol is a warning, not an error: a platform may set its
 * own default (AWS's distribution sets http/protobuf), and the OTLP/HTTP endpoints, CloudWatch's
 * among them, take JSON as well; a gRPC-only collector will refuse, which the export warning says.
 */
export function protocolWarning(env: Env): string | null {
  const protocol = blank(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? blank(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol === undefined || protocol === 'http/json') return null;
  return `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: traces go as http/json, the one protocol built in (OTLP/HTTP endpoints take it)`;
}

/** The batch processor's limits, from OTEL_BSP_* of `env` (the processor reads process.env itself otherwise). */
function bufferConfig(env: Env): BufferConfig {
  const config: BufferConfig = {};
  const set = (key: keyof BufferConfig, name: string) => {
    const v = blank(env[name]);
    if (v === undefined) return;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw ConfigError.of([`${name}: must be a whole number of at least 1, not "${v}"`]);
    config[key] = n;
  };
  set('maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE');
  set('maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE');
  set('scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY');
  set('exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT');
  return config;
}

/**
 * OTEL_RESOURCE_ATTRIBUTES (`key=value,...`, values percent-encoded) and OTEL_SERVICE_NAME (which
 * wins) of `env`, as the spec reads them (the SDK's envDetector reads process.env only).
 */
export function resourceAttributes(env: Env): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a malformed escape: the spec says to drop the attribute
    }
  }
  const service = blank(env.OTEL_SERVICE_NAME);
  if (service) attributes['service.name'] = service;
  return attributes;
}

/** Sets tracing up as `env` says (see above). Throws ConfigError for variables it cannot honour. */
export function startTracing(env: Env, options: TracingOptions): Tracing {
  const kind = options.exporter ? 'otlp' : tracesExporter(env);
  if (kind === 'none') {
    const tracer = trace.getTracer(options.serviceName);
    return { enabled: false, tracer, destination: null, flush: async () => {}, shutdown: async () => {} };
  }
  const url = tracesUrl(env);
  const protocol = kind === 'otlp' && !options.exporter ? protocolWarning(env) : null;
  if (protocol) options.warn(protocol);
  const timeout = blank(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT) ?? blank(env.OTEL_EXPORTER_OTLP_TIMEOUT);
  const otlp = () =>
    new OTLPTraceExporter({ url, ...(timeout && Number(timeout) > 0 ? { timeoutMillis: Number(timeout) } : {}) });
  const inner = options.exporter ?? (kind === 'console' ? new ConsoleSpanExporter() : otlp());
  const exporter = new WarnOnceExporter(inner, url, options.warn);
  const resource = resourceFromAttributes({ 'service.name': options.serviceName, ...resourceAttributes(env) });
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(exporter, bufferConfig(env))],
  });
  const register = options.register ?? true;
  if (register) {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  const tracer = provider.getTracer(options.serviceName);
  return {
    enabled: true,
    tracer,
    destination: kind === 'console' ? 'console' : url,
    // A failed export was warned about (WarnOnceExporter): flushing never throws for it.
    flush: () => provider.forceFlush().catch(() => {}),
    shutdown: async () => {
      await provider.shutdown().catch(() => {});
      if (!register) return;
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Passes spans on; the first failed export of an outage is one warning (the exporter itself would
 * be silent, and a warning per batch would flood the log), the first success after it one more.
 */
class WarnOnceExporter implements SpanExporter {
  readonly #inner: SpanExporter;
  readonly #url: string;
  readonly #warn: (message: string) => void;
  #failing = false;

  constructor(inner: SpanExporter, url: string, warn: (message: string) => void) {
    this.#inner = inner;
    this.#url = url;
    this.#warn = warn;
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.#inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && !this.#failing) {
        this.#failing = true;
        this.#warn(
          `cannot export traces to ${this.#url} (${result.error?.message ?? 'failed'}): turns go on; spans are dropped ` +
            'while the collector is unreachable (bounded by OTEL_BSP_MAX_QUEUE_SIZE); no further warning until it is back',
        );
      } else if (result.code === ExportResultCode.SUCCESS && this.#failing) {
        this.#failing = false;
        this.#warn(`exporting traces to ${this.#url} again`);
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve();
  }
}

const w3c = new W3CTraceContextPropagator();
const getter = {
  get: (c: Record<string, string>, k: string) => c[k],
  keys: (c: Record<string, string>) => Object.keys(c),
};

/** The context a W3C `traceparent` names as parent; a missing or malformed one gives the root (a new trace). */
export function parentFromTraceparent(traceparent: string | undefined): Context {
  if (typeof traceparent !== 'string' || traceparent === '') return ROOT_CONTEXT;
  return w3c.extract(ROOT_CONTEXT, { traceparent }, getter);
}

/** The W3C `traceparent` of a span (undefined for a span that is not sampled or not valid). */
export function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {};
  w3c.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, {
    set: (c: Record<string, string>, k: string, v: string) => {
      c[k] = v;
    },
  });
  return carrier.traceparent;
}
