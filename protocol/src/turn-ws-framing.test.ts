import { expect, test } from '@jest/globals';
import { WsTurnFramer } from './turn-ws-framing.js';

test('binary frames belong to the earliest open sentence, numbered per sentence; none open is null', () => {
  const framer = new WsTurnFramer();
  expect(framer.audio()).toBeNull();
  expect(framer.event({ type: 'sentence', id: 's0' })).toEqual({ type: 'sentence', id: 's0' });
  expect([framer.audio(), framer.audio()]).toEqual([
    { id: 's0', seq: 0 },
    { id: 's0', seq: 1 },
  ]);
  framer.event({ type: 'sentence', id: 's1' });
  expect(framer.audio()).toEqual({ id: 's0', seq: 2 });
  framer.event({ type: 'sentence_end', id: 's0' });
  expect(framer.audio()).toEqual({ id: 's1', seq: 0 });
  framer.event({ type: 'sentence_end', id: 'unknown' });
  framer.event({ type: 'sentence_end', id: 's1' });
  expect(framer.audio()).toBeNull();
});
