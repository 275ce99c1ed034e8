// A small OTLP/HTTP traces receiver (JSON encoding, what the agent's and the container's exporter
// send: https://opentelemetry.io/docs/specs/otlp/#otlphttp), in process on loopback: the tests'
// collector and `npm start -- --trace`'s. It keeps the spans it gets, flattened (ids as hex, times
// as epoch ms, attributes as plain values), and tells listeners as they arrive. Not in the images:
// nothing they run imports it. Written by hand: the OpenTelemetry collector is a Go binary, and
// the JSON it takes is a few nested arrays.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for a trace's root span. */
  parentSpanId?: string;
  name: string;
  /** The resource's service.name (which process sent it). */
  service: string;
  /** The resource's attributes (service.name among them). */
  resource: Record<string, AttributeValue>;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; atMs: number }[];
  status: 'unset' | 'ok' | 'error';
}

/** Bodies over this are refused (413): a test collector, not a production one. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value?: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
  events?: { name: string; timeUnixNano: string | number }[];
  status?: { code?: number };
}
interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

const ms = (nanos: string | number) => Number(BigInt(nanos) / 1000n) / 1000;

function value(v: OtlpValue | undefined): AttributeValue {
  if (!v) return '';
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  return '';
}

function attributes(list: OtlpAttribute[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));
}

/** The spans of one OTLP/JSON export request, flattened. Throws on a body that is not one. */
export function parseOtlpTraces(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as OtlpRequest;
  if (typeof request !== 'object' || request === null) throw new TypeError('not an OTLP export request');
  const spans: ReceivedSpan[] = [];
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    const service = String(resource['service.name'] ?? 'unknown');
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          traceId: s.traceId,
          spanId: s.spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          service,
          resource,
          startMs: ms(s.startTimeUnixNano),
          endMs: ms(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: (s.events ?? []).map((e) => ({ name: e.name, atMs: ms(e.timeUnixNano) })),
          status: s.status?.code === 2 ? 'error' : s.status?.code === 1 ? 'ok' : 'unset',
        });
      }
    }
  }
  return spans;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** The last export request as it arrived (tests check its signature). */
  lastRequest: { method: string; path: string; headers: IncomingHttpHeaders; body: Buffer } | undefined;
  /** http://127.0.0.1:port: what OTEL_EXPORTER_OTLP_ENDPOINT takes. */
  readonly url: string;
  readonly #server: Server;
  readonly #listeners = new Set<(spans: ReceivedSpan[]) => void>();
  /** While held, requests wait unanswered (a collector that hangs). */
  #held: (() => void)[] | null = null;

  private constructor(server: Server, url: string) {
    this.#server = server;
    this.url = url;
  }

  /** Listens on a free loopback port. */
  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((req, res) => {
      void receiver!.#handle(req).then(
        (status) => {
          const answer = () => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(status === 200 ? '{}' : JSON.stringify({ code: 3, message: 'not an OTLP/JSON traces request' }));
          };
          if (receiver!.#held) receiver!.#held.push(answer);
          else answer();
        },
        () => res.writeHead(500).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return receiver;
  }

  /** The traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
  get tracesUrl(): string {
    return `${this.url}/v1/traces`;
  }

  /** Calls `listener` with the spans of each export request as it arrives; returns the unsubscribe. */
  onSpans(listener: (spans: ReceivedSpan[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once the spans received satisfy `until` (checked at each arrival), or rejects after `timeoutMs`. */
  waitFor(until: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs = 10_000): Promise<ReceivedSpan[]> {
    if (until(this.spans)) return Promise.resolve(this.spans);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for spans; got ${this.spans.map((s) => s.name).join(', ')}`,
          ),
        );
      }, timeoutMs);
      const stop = this.onSpans(() => {
        if (!until(this.spans)) return;
        clearTimeout(timer);
        stop();
        resolve(this.spans);
      });
    });
  }

  /** Requests are kept waiting (after being read) until release(). */
  hold(): void {
    this.#held ??= [];
  }

  release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const answer of held) answer();
  }

  async close(): Promise<void> {
    this.release();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage): Promise<number> {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/traces') return 404;
    if (!(req.headers['content-type'] ?? '').includes('application/json')) return 415;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return 413;
      chunks.push(chunk);
    }
    let spans: ReceivedSpan[];
    const body = Buffer.concat(chunks);
    this.lastRequest = { method: req.method, path: req.url ?? '', headers: req.headers, body };
    try {
      spans = parseOtlpTraces(body.toString('utf8'));
    } catch {
      return 400;
    }
    this.spans.push(...spans);
    for (const listener of this.#listeners) listener(spans);
    return 200;
  }
}
