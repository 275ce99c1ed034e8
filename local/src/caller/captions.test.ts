import { expect, test } from '@jest/globals';
import { vttTime, webVtt } from './captions.ts';

test('WebVTT: a cue per sentence with a timestamp tag before each later word, markup escaped', () => {
  expect(vttTime(3_723_456.4)).toBe('01:02:03.456');
  const vtt = webVtt([
    {
      words: [
        { text: 'Hello', start: 0, end: 5, start_ms: 12, end_ms: 400 },
        { text: '<world>', start: 6, end: 13, start_ms: 420.6, end_ms: 900 },
      ],
    },
    { words: [] },
    { words: [{ text: 'Again.', start: 0, end: 6, start_ms: 1000, end_ms: 1500 }], offsetMs: 20 },
  ]);
  expect(vtt).toBe(
    'WEBVTT\n\n1\n00:00:00.012 --> 00:00:00.900\nHello <00:00:00.421>&lt;world&gt;\n\n' +
      '2\n00:00:01.020 --> 00:00:01.520\nAgain.\n',
  );
});
