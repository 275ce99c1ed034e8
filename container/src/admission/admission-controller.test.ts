import { describe, expect, test } from '@jest/globals';
import { AdmissionController, DEFAULT_ADMISSION, type AdmissionOptions, type Backlog } from './index.ts';

/** A load source on a fake clock whose measurements the test sets. */
function fakeLoad(init: Partial<{ modelMsPerAudioMs: number; averageRunMs: number; modelSlots: number }> = {}) {
  const load = {
    clock: 1_000_000,
    modelBusy: 0,
    prepBusy: 0,
    modelMsPerAudioMs: init.modelMsPerAudioMs ?? 0.04,
    prepMsPerAudioMs: 0.002,
    averageRunMs: init.averageRunMs ?? 100,
    streams: [] as Backlog[],
  };
  const source = {
    now: () => load.clock,
    backlogs: () => load.streams,
    modelBusyMs: () => load.modelBusy,
    prepBusyMs: () => load.prepBusy,
    modelSlots: init.modelSlots ?? 1,
    prepSlots: 3,
    modelMsPerAudioMs: () => load.modelMsPerAudioMs,
    prepMsPerAudioMs: () => load.prepMsPerAudioMs,
    averageRunMs: () => load.averageRunMs,
  };
  return { load, source };
}

const controller = (source: ReturnType<typeof fakeLoad>['source'], options: Partial<AdmissionOptions> = {}) =>
  new AdmissionController({ ...DEFAULT_ADMISSION, ...options }, source);

describe('the sustained rule', () => {
  test('before any data, the prior decides: model time per audio second x the speaking share', () => {
    // 0.04 model-s per audio-s x 0.5 speaking = 0.02 of the model per session: 35 fit in 70 %.
    // (a 1 ms average run: the backlog rule lets any number of first pieces through here)
    const { source } = fakeLoad({ modelMsPerAudioMs: 0.04, averageRunMs: 1 });
    const admission = controller(source);
    for (let i = 0; i < 35; i++) expect(admission.admit('session').admitted).toBe(true);
    const refused = admission.admit('session');
    expect(refused).toMatchObject({ admitted: false, rule: 'sustained', retryAfterS: 2 });
    if (refused.admitted) throw new Error('unreachable');
    expect(refused.message).toMatch(/one more session would need 72%, over ADMISSION_MAX_UTILIZATION=0.7/);
    expect(admission.snapshot()).toMatchObject({ sessions: 35, capacity: 35, admitted: 35, refusedSustained: 1 });
  });

  test('the measured speaking share replaces the prior as session time accumulates; a lull does not let a herd in', () => {
    const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.04, averageRunMs: 1 });
    const admission = controller(source);
    // 10 sessions for 30 s, 4 of them speaking (audio playing) all along; the model 16 % busy.
    const speaking = () =>
      Array.from({ length: 4 }, () => ({ playoutEnd: load.clock + 5000, pendingAudioMs: [], firstArrivedAt: 0 }));
    load.streams = speaking();
    const held = Array.from({ length: 10 }, () => admission.admit('session'));
    expect(held.every((d) => d.admitted)).toBe(true);
    for (let s = 0; s < 30; s++) {
      load.streams = speaking();
      admission.tick();
      load.clock += 1000;
      load.modelBusy += 160;
    }
    // share (4 x 30 s + 0.5 x 20 s) / (10 x 30 s + 20 s) = 0.40625; x 0.04 = 0.01625 per session: 43 in 70 %.
    const snapshot = admission.snapshot();
    expect(snapshot.speakingShare).toBeCloseTo(0.40625, 5);
    expect(snapshot.capacity).toBe(43);
    expect(snapshot.modelUtilization).toBeCloseTo(0.16, 2);
    // Everyone now listens for 5 s: the window still holds 26 s of their speaking (sampled once a
    // second), so 39 more get in (share (4 x 26 s + 10 s) / 320 s = 0.35625: capacity 49), not a herd.
    load.streams = [];
    for (let s = 0; s < 5; s++) {
      load.clock += 1000;
      admission.tick();
    }
    const more = Array.from({ length: 100 }, () => admission.admit('session'));
    expect(more.filter((d) => d.admitted)).toHaveLength(39);
    expect(admission.snapshot().sessions).toBe(49);
  });

  test('released sessions free their share; release is idempotent', () => {
    const { source } = fakeLoad({ modelMsPerAudioMs: 0.04, averageRunMs: 1 });
    const admission = controller(source);
    const all = Array.from({ length: 35 }, () => admission.admit('session'));
    expect(admission.admit('request').admitted).toBe(false);
    const first = all[0]!;
    if (!first.admitted) throw new Error('unreachable');
    first.release();
    first.release();
    expect(admission.snapshot().sessions).toBe(34);
    expect(admission.admit('request').admitted).toBe(true);
    expect(admission.admit('request').admitted).toBe(false);
  });

  test('the prep workers count too: a text-preparation bottleneck refuses sessions', () => {
    const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.001, averageRunMs: 1 });
    load.prepMsPerAudioMs = 0.3; // 3 workers: 0.15 x n / 3 > 0.7 from n = 15
    const admission = controller(source);
    for (let i = 0; i < 14; i++) expect(admission.admit('session').admitted).toBe(true);
    const refused = admission.admit('session');
    expect(refused.admitted).toBe(false);
    if (!refused.admitted) expect(refused.message).toMatch(/text preparation slots/);
  });
});

describe('the backlog rule (earliest deadline first over the queued audio)', () => {
  test('one more would make an admitted session run dry: refused; with slack: admitted', () => {
    const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.4, averageRunMs: 100 });
    const admission = controller(source, { priorSpeakingShare: 0 });
    // Playing until now + 420 ms, its next piece (1 s of audio) takes 400 ms: done at +400 alone,
    // at +500 behind a newcomer's first piece (due at +400, so it goes first): 80 ms dry.
    load.streams = [{ playoutEnd: load.clock + 420, pendingAudioMs: [1000], firstArrivedAt: load.clock - 3000 }];
    const refused = admission.admit('session');
    expect(refused).toMatchObject({ admitted: false, rule: 'backlog', retryAfterS: 1 });
    if (!refused.admitted) expect(refused.message).toMatch(/would make an admitted session's audio run dry 80 ms/);
    // With 2 s still playing there is room for both.
    load.clock += 1000;
    load.streams = [{ playoutEnd: load.clock + 2000, pendingAudioMs: [1000], firstArrivedAt: load.clock - 4000 }];
    expect(admission.admit('session').admitted).toBe(true);
  });

  test("the queue ahead would keep a newcomer's first audio past firstAudioMs: refused", () => {
    const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.1, averageRunMs: 100 });
    const admission = controller(source, { priorSpeakingShare: 0, firstAudioMs: 400 });
    // Three answers just began: their first pieces (2 s of audio = 200 ms each) go first.
    load.streams = Array.from({ length: 3 }, () => ({
      playoutEnd: 0,
      pendingAudioMs: [2000, 2000],
      firstArrivedAt: load.clock,
    }));
    const refused = admission.admit('session');
    expect(refused).toMatchObject({ admitted: false, rule: 'backlog' });
    if (!refused.admitted) expect(refused.message).toMatch(/first audio for 300 ms past ADMISSION_FIRST_AUDIO_MS=400/);
    // One such answer: the newcomer's first piece is done at +300.
    load.clock += 1000;
    load.streams = [{ playoutEnd: 0, pendingAudioMs: [2000, 2000], firstArrivedAt: load.clock }];
    expect(admission.admit('session').admitted).toBe(true);
  });

  test('a model slower than the first-audio budget still admits on an idle server', () => {
    const { source } = fakeLoad({ modelMsPerAudioMs: 0.7, averageRunMs: 700 });
    const admission = controller(source, { priorSpeakingShare: 0, firstAudioMs: 400 });
    expect(admission.admit('session').admitted).toBe(true);
    expect(admission.admit('session')).toMatchObject({ admitted: false, rule: 'backlog' });
  });

  test('a flood of connects: one backlog pass per interval; newcomers count until their first audio is due', () => {
    const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.01, averageRunMs: 90 });
    const admission = controller(source, { priorSpeakingShare: 0, assessEveryMs: 25, firstAudioMs: 400 });
    // 20 sessions playing for 5 s more, 3 pieces of 3 s each queued (30 ms of model time each).
    load.streams = Array.from({ length: 20 }, (_, i) => ({
      playoutEnd: load.clock + 5000 + i,
      pendingAudioMs: [3000, 3000, 3000],
      firstArrivedAt: load.clock - 1000,
    }));
    const decisions = Array.from({ length: 10_000 }, () => admission.admit('session'));
    // Newcomers' first pieces (90 ms each) must all be done within 400 ms: 4 fit, the 5th would be late.
    expect(decisions.filter((d) => d.admitted)).toHaveLength(4);
    expect(admission.assessments).toBe(1);
    // A new pass 25 ms later still counts those 4 first pieces (due 375 ms from now).
    load.clock += 25;
    expect(admission.admit('session')).toMatchObject({ admitted: false, rule: 'backlog' });
    expect(admission.assessments).toBe(2);
    // Past their first-audio deadline they count only through their own queues (empty here).
    load.clock += 400;
    const next = admission.admit('session');
    expect(next.admitted).toBe(true);
    // So does one that has queued its first text (its backlog shows it), or has gone.
    load.clock += 25;
    const more = [admission.admit('session'), admission.admit('session'), admission.admit('session')];
    expect(more.map((d) => d.admitted)).toEqual([true, true, true]);
    expect(admission.admit('session').admitted).toBe(false);
    if (next.admitted) next.speaking();
    if (more[0]!.admitted) more[0]!.release();
    load.clock += 25;
    expect(admission.admit('session').admitted).toBe(true);
    expect(admission.admit('session').admitted).toBe(true);
    expect(admission.admit('session').admitted).toBe(false);
  });
});

test('reading the load changes nothing: the same answer twice, and the decisions of a twin never read', () => {
  const { load, source } = fakeLoad({ modelMsPerAudioMs: 0.4, averageRunMs: 1 });
  const read = controller(source);
  const unread = controller(source);
  for (const admission of [read, unread]) for (let i = 0; i < 10; i++) admission.admit('session');
  const speaking = Array.from({ length: 8 }, () => ({ playoutEnd: Infinity, pendingAudioMs: [], firstArrivedAt: 0 }));
  // A tick every 2 s; a second after each, the streams speak and one controller's load is read (a
  // sample would be due then: a read that sampled would count them); by the tick they are quiet.
  for (let s = 0; s < 20; s++) {
    load.clock += 1000;
    load.streams = speaking;
    load.modelBusy += 300;
    const first = read.snapshot();
    expect(read.snapshot()).toEqual(first);
    load.clock += 1000;
    load.streams = [];
    read.tick();
    unread.tick();
  }
  expect(read.snapshot()).toEqual(unread.snapshot());
  const decide = (admission: AdmissionController) =>
    Array.from({ length: 60 }, () => admission.admit('session')).map((d) => (d.admitted ? 'admitted' : d.message));
  const decisions = decide(read);
  expect(decisions).toEqual(decide(unread));
  expect(decisions).toContain('admitted');
  expect(decisions.at(-1)).toMatch(/ADMISSION_MAX_UTILIZATION/);
});

test('off: everything is admitted and still counted', () => {
  const { load, source } = fakeLoad({ modelMsPerAudioMs: 10 });
  const admission = controller(source, { enabled: false });
  load.streams = [{ playoutEnd: 0, pendingAudioMs: [10_000], firstArrivedAt: load.clock - 10_000 }];
  for (let i = 0; i < 100; i++) expect(admission.admit('session').admitted).toBe(true);
  expect(admission.snapshot()).toMatchObject({ sessions: 100, admitted: 100, refused: 0, capacity: 0 });
  expect(admission.assessments).toBe(0);
});

test('session time is integrated on the source clock (a wall-clock jump cannot reach it)', () => {
  const { load, source } = fakeLoad();
  const admission = controller(source);
  const a = admission.admit('session');
  admission.admit('session');
  load.clock += 1500;
  if (a.admitted) a.release();
  load.clock += 1000;
  expect(admission.snapshot().sessionMs).toBe(2 * 1500 + 1000);
});

test('bad options are refused with every problem named', () => {
  const { source } = fakeLoad();
  expect(() => controller(source, { maxUtilization: 0, firstAudioMs: -1 })).toThrow(
    /maxUtilization 0 \(0-1\), firstAudioMs -1 \(> 0\)/,
  );
});
