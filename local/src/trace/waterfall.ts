// A trace as a console waterfall: one line per span, indented under its parent, with its start
// (ms from the trace's first span) and duration, the turn's outcome in the header, and the
// container's spans marked with their service. What `npm start -- --trace` prints per turn.
import type { ReceivedSpan } from '@kokoro-speech/protocol/otlp-receiver';

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The lines of one trace's waterfall (spans of one trace id, any order). */
export function waterfall(spans: readonly ReceivedSpan[]): string[] {
  if (spans.length === 0) return [];
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  const roots: ReceivedSpan[] = [];
  for (const s of spans) {
    // A span whose parent is not here (the caller's own span, or one not received) is a root.
    if (s.parentSpanId && ids.has(s.parentSpanId)) {
      const list = children.get(s.parentSpanId) ?? [];
      list.push(s);
      children.set(s.parentSpanId, list);
    } else roots.push(s);
  }
  const byStart = (a: ReceivedSpan, b: ReceivedSpan) => a.startMs - b.startMs || a.name.localeCompare(b.name);
  const t0 = Math.min(...spans.map((s) => s.startMs));
  const agentService = roots.sort(byStart)[0]!.service;
  const turn = spans.find((s) => s.name === 'kokoro.turn');
  const outcome = turn?.attributes['kokoro.turn.outcome'];
  const lines = [
    `trace ${spans[0]!.traceId}${outcome === undefined ? '' : ` (${outcome})`}: ${spans.length} spans`,
    `${'start'.padStart(10)} ${'duration'.padStart(10)}  span`,
  ];
  const visit = (s: ReceivedSpan, depth: number) => {
    const service = s.service === agentService ? '' : `  [${s.service}]`;
    const failed = s.status === 'error' ? '  (error)' : '';
    lines.push(
      `${ms(s.startMs - t0).padStart(10)} ${ms(s.endMs - s.startMs).padStart(10)}  ${'  '.repeat(depth)}${label(s)}${service}${failed}`,
    );
    for (const child of (children.get(s.spanId) ?? []).sort(byStart)) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return lines;
}

/** The span's name, with what tells it apart from its siblings (which sentence, tool or try). */
function label(s: ReceivedSpan): string {
  const a = s.attributes;
  const extra =
    a['kokoro.sentence.id'] ?? a['kokoro.utterance.id'] ?? a['kokoro.tool.name'] ?? a['kokoro.tts.why'] ?? undefined;
  return extra === undefined ? s.name : `${s.name} ${extra}`;
}
