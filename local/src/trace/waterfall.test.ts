import { describe, expect, test } from '@jest/globals';
import type { ReceivedSpan } from '@kokoro-speech/protocol/otlp-receiver';
import { waterfall } from './waterfall.ts';

const T = 'a'.repeat(32);
function span(spanId: string, name: string, startMs: number, endMs: number, extra: Partial<ReceivedSpan> = {}) {
  return {
    traceId: T,
    spanId,
    name,
    service: 'kokoro-agent',
    resource: {},
    startMs: 1_000_000 + startMs,
    endMs: 1_000_000 + endMs,
    attributes: {},
    events: [],
    status: 'unset',
    ...extra,
  } as ReceivedSpan;
}

describe('waterfall', () => {
  test('one line per span, indented under its parent, siblings by start; offsets from the first span', () => {
    const spans = [
      span('u', 'kokoro.utterance', 30, 80, {
        parentSpanId: 's0',
        service: 'kokoro-tts',
        attributes: { 'kokoro.utterance.id': 's0' },
      }),
      span('s1', 'kokoro.sentence', 60, 140, { parentSpanId: 't', attributes: { 'kokoro.sentence.id': 's1' } }),
      span('t', 'kokoro.turn', 0, 150.25, { attributes: { 'kokoro.turn.outcome': 'done' } }),
      span('s0', 'kokoro.sentence', 20, 100, { parentSpanId: 't', attributes: { 'kokoro.sentence.id': 's0' } }),
      span('c', 'tts.connect', 1, 12, { parentSpanId: 't', attributes: { 'kokoro.tts.why': 'open' }, status: 'error' }),
      span('y', 'kokoro.synthesis', 40, 70, { parentSpanId: 'u', service: 'kokoro-tts' }),
    ];
    expect(waterfall(spans)).toEqual([
      `trace ${T} (done): 6 spans`,
      '     start   duration  span',
      '    0.0 ms   150.3 ms  kokoro.turn',
      '    1.0 ms    11.0 ms    tts.connect open  (error)',
      '   20.0 ms    80.0 ms    kokoro.sentence s0',
      '   30.0 ms    50.0 ms      kokoro.utterance s0  [kokoro-tts]',
      '   40.0 ms    30.0 ms        kokoro.synthesis  [kokoro-tts]',
      '   60.0 ms    80.0 ms    kokoro.sentence s1',
    ]);
  });

  test("a span whose parent is not in the trace (the caller's own span) is shown as a root", () => {
    const lines = waterfall([span('t', 'kokoro.turn', 5, 10, { parentSpanId: 'caller' })]);
    expect(lines.at(-1)).toBe('    0.0 ms     5.0 ms  kokoro.turn');
    expect(waterfall([])).toEqual([]);
  });
});
