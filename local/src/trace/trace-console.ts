// `npm start -- --trace`: an OTLP/HTTP receiver on loopback that the agent's and the container's
// exporters point at, and a waterfall on the console for each turn once its trace is in. A turn's
// spans come in several exports (the agent's, then the container's, each batched), so a trace is
// printed once its turn span has arrived and nothing more of it for a moment.
import { startTracing, type Tracing } from '@kokoro-speech/protocol/observability';
import { OtlpReceiver, type ReceivedSpan } from '@kokoro-speech/protocol/otlp-receiver';
import { waterfall } from './waterfall.ts';

/** How long a trace must be quiet, after its turn span, before it is printed. */
const QUIET_MS = 400;

export interface TraceConsole {
  /** OTEL_* for processes that export here (the containers of --instances). */
  env: Record<string, string>;
  /** For the agent (registered globally: Strands' spans go through it). */
  agent: Tracing;
  /** For an in-process container (its own provider: its spans say kokoro-tts). */
  container: Tracing;
  close(): Promise<void>;
}

export async function startTraceConsole(print: (line: string) => void): Promise<TraceConsole> {
  const receiver = await OtlpReceiver.start();
  // Short batching: the waterfall follows the turn closely.
  const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
  const warn = (message: string) => print(`trace: ${message}`);
  const agent = startTracing(env, { serviceName: 'kokoro-agent', warn });
  const container = startTracing(env, { serviceName: 'kokoro-tts', warn, register: false });
  const traces = new Map<string, { spans: ReceivedSpan[]; timer?: NodeJS.Timeout }>();
  const flush = (traceId: string) => {
    const t = traces.get(traceId);
    traces.delete(traceId);
    if (t) for (const line of waterfall(t.spans)) print(line);
  };
  receiver.onSpans((spans) => {
    for (const s of spans) {
      const t = traces.get(s.traceId) ?? { spans: [] };
      traces.set(s.traceId, t);
      t.spans.push(s);
    }
    for (const id of new Set(spans.map((s) => s.traceId))) {
      const t = traces.get(id)!;
      if (!t.spans.some((s) => s.name === 'kokoro.turn')) continue; // the turn is still running
      clearTimeout(t.timer);
      t.timer = setTimeout(() => flush(id), QUIET_MS);
    }
  });
  return {
    env,
    agent,
    container,
    close: async () => {
      await Promise.all([agent.shutdown(), container.shutdown()]);
      for (const [id, t] of traces) if (t.timer) (clearTimeout(t.timer), flush(id));
      await receiver.close();
    },
  };
}
