// The voice side of preemptive generation: when an answer starts, when it is discarded, when it is
// left for the turn to adopt.
import { expect, test } from '@jest/globals';
import { PreemptiveTurn } from './preemptive-turn.ts';

function host() {
  const log: string[] = [];
  const start = (prompt: string) => {
    log.push(`start ${prompt}`);
    return { discard: () => log.push(`discard ${prompt}`) };
  };
  return { log, start };
}

test('off (no host start): nothing starts', () => {
  const p = new PreemptiveTurn(undefined);
  p.final('hello');
  expect(p.heldText).toBe('');
});

test('a stable partial starts once the speech ended; the same words at the final and the turn keep it', () => {
  const { log, start } = host();
  const p = new PreemptiveTurn(start);
  p.partial('what time', false, true);
  p.partial('what time is it', true, true); // all stable, but the customer is still speaking
  expect(log).toEqual([]);
  p.speechEnd();
  expect(log).toEqual(['start what time is it']);
  p.partial('what time is it', true, false);
  p.final('what time is it');
  p.turn('what time is it');
  expect(log).toEqual(['start what time is it']); // left for the turn: not discarded, not restarted
  expect(p.heldText).toBe('');
});

test('a partial not all stable does not start; a stable one heard after the speech ended starts at once', () => {
  const { log, start } = host();
  const p = new PreemptiveTurn(start);
  p.partial('what time', false, false);
  p.speechEnd();
  expect(log).toEqual([]);
  p.partial('what time is it', true, false);
  expect(log).toEqual(['start what time is it']);
});

test('other words discard the held answer at once, and the final words start a new one', () => {
  const { log, start } = host();
  const p = new PreemptiveTurn(start);
  p.partial('what time', true, false);
  p.partial('what time is it', false, true); // the customer went on
  expect(log).toEqual(['start what time', 'discard what time']);
  p.final('what time is it');
  expect(log.at(-1)).toBe('start what time is it');
  p.turn('what time is it, please'); // a later final joined the turn
  expect(log.at(-1)).toBe('discard what time is it');
});

test('a host that cannot start (a turn is running) holds nothing; discard and close are safe', () => {
  const p = new PreemptiveTurn(() => undefined);
  p.final('hello');
  expect(p.heldText).toBe('');
  p.discard();
  p.discard();
});
