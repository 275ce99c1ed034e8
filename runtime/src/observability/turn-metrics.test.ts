import { describe, expect, test } from '@jest/globals';
// AWS's own EMF library, as the reference for the lines we write by hand (a dev dependency only).
import { MetricsContext } from 'aws-embedded-metrics/lib/logger/MetricsContext.js';
import { LogSerializer } from 'aws-embedded-metrics/lib/serializers/LogSerializer.js';
import { errorDimension, TurnMetrics } from './turn-metrics.ts';

type Doc = Record<string, unknown> & {
  _aws: {
    Timestamp: number;
    CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
  };
};

/** The same line through aws-embedded-metrics' serializer: what it writes for these dimensions and values. */
function reference(line: Doc): Doc {
  const directive = line._aws.CloudWatchMetrics[0]!;
  const context = MetricsContext.empty();
  context.setNamespace(directive.Namespace);
  context.setDimensions([Object.fromEntries(directive.Dimensions[0]!.map((d) => [d, String(line[d])]))], false);
  context.setTimestamp(line._aws.Timestamp);
  for (const m of directive.Metrics as { Name: string; Unit: string }[]) {
    const value = line[m.Name] as number | number[];
    for (const v of Array.isArray(value) ? value : [value]) context.putMetric(m.Name, v, m.Unit as never);
  }
  const [serialized] = new LogSerializer().serialize(context);
  return JSON.parse(serialized!) as Doc;
}

const sorted = (doc: Doc) => {
  doc._aws.CloudWatchMetrics[0]!.Metrics.sort((a, b) => a.Name.localeCompare(b.Name));
  return doc;
};

const at = Date.now(); // (the library refuses timestamps over 14 days old, as CloudWatch does)

function linesOf(result: Parameters<TurnMetrics['lines']>[0], extras = { refusals: 0, callerDropped: false }) {
  const metrics = new TurnMetrics({ namespace: 'KokoroSpeech', service: 'kokoro-agent', now: () => at });
  return metrics.lines(result, extras).map((line) => JSON.parse(line) as Doc);
}

const completed = {
  outcome: 'completed' as const,
  metrics: { first_token_ms: 120.5, first_audio_ms: 410.25, total_ms: 2300 },
  sentences: [
    { readyMs: 200, firstAudioMs: 410.25 },
    { readyMs: 900, firstAudioMs: 1500 },
    { readyMs: 1800 }, // its audio never came (cut off): no figure
  ],
};

describe('TurnMetrics', () => {
  test('a finished turn: one line, dimension set [Service], that aws-embedded-metrics writes the same', () => {
    const lines = linesOf(completed, { refusals: 2, callerDropped: false });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(sorted(line!)).toEqual(sorted(reference(line!)));
    expect(line!._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'KokoroSpeech', Dimensions: [['Service']] });
    expect(line).toMatchObject({
      Service: 'kokoro-agent',
      Turns: 1,
      TurnDuration: 2300,
      FirstToken: 120.5,
      FirstAudio: 410.25,
      SentenceToAudio: [210.25, 600],
      Interruptions: 0,
      TtsRefusals: 2,
      CallerDrops: 0,
    });
    const units = Object.fromEntries(
      (line!._aws.CloudWatchMetrics[0]!.Metrics as { Name: string; Unit: string }[]).map((m) => [m.Name, m.Unit]),
    );
    expect(units).toEqual({
      Turns: 'Count',
      TurnDuration: 'Milliseconds',
      FirstToken: 'Milliseconds',
      FirstAudio: 'Milliseconds',
      SentenceToAudio: 'Milliseconds',
      Interruptions: 'Count',
      TtsRefusals: 'Count',
      CallerDrops: 'Count',
    });
  });

  test('no session, request or user id anywhere in the line (bounded cardinality, no caller data)', () => {
    const [line] = linesOf(completed);
    expect(Object.keys(line!).sort()).toEqual(
      [
        '_aws',
        'Service',
        'Turns',
        'TurnDuration',
        'FirstToken',
        'FirstAudio',
        'SentenceToAudio',
        'Interruptions',
        'TtsRefusals',
        'CallerDrops',
      ].sort(),
    );
  });

  test('a cut turn before any token or audio: no FirstToken, FirstAudio or SentenceToAudio; the cut and the drop count', () => {
    const [line] = linesOf(
      {
        outcome: 'cancelled',
        metrics: { first_token_ms: null, first_audio_ms: null, total_ms: 80 },
        sentences: [],
      },
      { refusals: 0, callerDropped: true },
    );
    expect(sorted(line!)).toEqual(sorted(reference(line!)));
    expect(line).not.toHaveProperty('FirstToken');
    expect(line).not.toHaveProperty('FirstAudio');
    expect(line).not.toHaveProperty('SentenceToAudio');
    expect(line).toMatchObject({ Interruptions: 1, CallerDrops: 1, Turns: 1 });
  });

  test('a failed turn: a second line counting TurnErrors by ErrorCode, dimension set [Service, ErrorCode]', () => {
    const lines = linesOf({ ...completed, outcome: 'failed', error: { code: 'tts_overloaded' } });
    expect(lines).toHaveLength(2);
    const errors = lines[1]!;
    expect(sorted(errors)).toEqual(sorted(reference(errors)));
    expect(errors._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['Service', 'ErrorCode']]);
    expect(errors).toMatchObject({ Service: 'kokoro-agent', ErrorCode: 'tts_overloaded', TurnErrors: 1 });
  });

  test('error codes keep a bounded set: known codes as they are, a sentence-level tts_<code> as tts_sentence, the rest other', () => {
    expect(errorDimension('llm_timeout')).toBe('llm_timeout');
    expect(errorDimension('tts_unavailable')).toBe('tts_unavailable');
    expect(errorDimension('tts_text_too_long')).toBe('tts_sentence');
    expect(errorDimension('tts_internal')).toBe('tts_sentence');
    expect(errorDimension('some_new_code_from_a_later_version')).toBe('other');
    // The turn contract's failing codes (docs/contracts/turn.md), each its own dimension value.
    const failing = [
      'unknown_voice',
      'llm_error',
      'llm_unauthorized',
      'llm_timeout',
      'timeout',
      'stream_limit',
      'internal',
    ];
    for (const code of failing) expect(errorDimension(code)).toBe(code);
    const [, line] = linesOf({ ...completed, outcome: 'failed', error: { code: 'session 1234 exploded' } });
    expect(line).toMatchObject({ ErrorCode: 'other', TurnErrors: 1 });
  });

  test('a long answer: SentenceToAudio keeps EMF’s 100 values per metric', () => {
    const sentences = Array.from({ length: 150 }, (_, i) => ({ readyMs: i * 10, firstAudioMs: i * 10 + 5 }));
    const [line] = linesOf({ ...completed, sentences });
    expect(line!.SentenceToAudio).toHaveLength(100);
    expect(sorted(line!)).toEqual(sorted(reference(line!)));
  });

  test('lines go to the writer given (stdout by default)', () => {
    const written: string[] = [];
    new TurnMetrics({ namespace: 'N', service: 'S', write: (l) => void written.push(l) }).turn(completed, {
      refusals: 0,
      callerDropped: false,
    });
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toMatchObject({ Service: 'S', Turns: 1 });
  });
});
