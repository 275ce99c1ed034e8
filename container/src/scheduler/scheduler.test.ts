import { describe, expect, jest, test } from '@jest/globals';
import { AudioDurationEstimator } from './estimate.ts';
import { deadlinePolicy, type Lane, Scheduler, type SchedulingPolicy } from './scheduler.ts';
import { fifoPolicy } from '../testing/fifo.ts';

/** A scheduler on a fake clock whose jobs finish only when the test says so. */
function harness(policy: SchedulingPolicy, concurrency = 1) {
  let clock = 1000;
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const scheduler = new Scheduler({ concurrency, policy, now: () => clock });
  const job = (lane: Lane, name: string, estimatedAudioMs = 1000) =>
    lane.enqueue({
      estimatedAudioMs,
      run: () =>
        new Promise<void>((resolve) => {
          started.push(name);
          finishers.set(name, resolve);
        }),
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return {
    scheduler,
    started,
    job,
    finish,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
}

describe('deadline policy', () => {
  test("a new session's first piece overtakes a long answer that still has audio playing", async () => {
    const h = harness(deadlinePolicy);
    let longPlayout = 0;
    const long = h.scheduler.openLane(() => longPlayout);
    const fresh = h.scheduler.openLane(() => 0);
    h.job(long, 'long-1');
    h.job(long, 'long-2');
    h.job(long, 'long-3');
    h.advance(5);
    h.job(fresh, 'fresh-1');
    expect(h.started).toEqual(['long-1']);
    // long-1's audio (3 s) was sent at t=1050: it plays until 4050, so long-2 is due then
    h.advance(45);
    longPlayout = h.now() + 3000;
    await h.finish('long-1');
    expect(h.started).toEqual(['long-1', 'fresh-1']);
    await h.finish('fresh-1');
    expect(h.started).toEqual(['long-1', 'fresh-1', 'long-2']);
  });

  test('the session whose audio runs out first goes first', async () => {
    const h = harness(deadlinePolicy);
    const playout = { a: 0, b: 0 };
    const a = h.scheduler.openLane(() => playout.a);
    const b = h.scheduler.openLane(() => playout.b);
    const blocker = h.scheduler.openLane(() => 0);
    h.job(blocker, 'blocker');
    playout.a = h.now() + 2000;
    playout.b = h.now() + 500;
    h.job(a, 'a-2');
    h.job(b, 'b-2');
    await h.finish('blocker');
    expect(h.started).toEqual(['blocker', 'b-2']);
    await h.finish('b-2');
    expect(h.started).toEqual(['blocker', 'b-2', 'a-2']);
  });

  test("a lane's running job pushes its next job's deadline back by its estimated audio", async () => {
    const h = harness(deadlinePolicy, 2);
    const a = h.scheduler.openLane(() => 0);
    const b = h.scheduler.openLane(() => 0);
    const other = h.scheduler.openLane(() => 0);
    h.job(a, 'a-1', 800);
    h.job(other, 'other');
    h.job(a, 'a-2', 800);
    h.advance(100);
    h.job(b, 'b-1');
    // a-2 is due at now + 800 (a-1's audio, still being made); b-1 is due at its arrival (1100)
    expect(h.scheduler.dueTime(a)).toBe(1900);
    expect(h.scheduler.dueTime(b)).toBe(1100);
    await h.finish('other');
    expect(h.started).toEqual(['a-1', 'other', 'b-1']);
    await h.finish('a-1');
    expect(h.started).toEqual(['a-1', 'other', 'b-1', 'a-2']);
  });

  test('same-lane jobs run in order, equal deadlines fall back to arrival order', async () => {
    const h = harness(deadlinePolicy);
    const a = h.scheduler.openLane(() => 0);
    const b = h.scheduler.openLane(() => 0);
    h.job(a, 'a-1', 0);
    h.job(b, 'b-1', 0);
    h.job(a, 'a-2', 0);
    h.job(b, 'b-2', 0);
    for (const name of ['a-1', 'b-1', 'a-2', 'b-2']) await h.finish(name);
    expect(h.started).toEqual(['a-1', 'b-1', 'a-2', 'b-2']);
  });
});

test('a job is due its lead time before the audio runs out', () => {
  let clock = 0;
  const s = new Scheduler({ concurrency: 1, policy: deadlinePolicy, now: () => clock, leadMs: () => 150 });
  const lane = s.openLane(() => 5000);
  const blocker = s.openLane(() => 0);
  blocker.enqueue({ estimatedAudioMs: 0, run: () => new Promise(() => {}) });
  clock = 100;
  lane.enqueue({ estimatedAudioMs: 0, run: async () => {} });
  expect(s.dueTime(lane)).toBe(4850);
});

test('fifo policy runs in arrival order regardless of playback', async () => {
  const h = harness(fifoPolicy);
  const long = h.scheduler.openLane(() => h.now() + 60_000);
  const fresh = h.scheduler.openLane(() => 0);
  h.job(long, 'long-1');
  h.job(long, 'long-2');
  h.job(fresh, 'fresh-1');
  await h.finish('long-1');
  await h.finish('long-2');
  expect(h.started).toEqual(['long-1', 'long-2', 'fresh-1']);
});

test('bounded concurrency, cancel drops queued jobs at once, whenIdle', async () => {
  const h = harness(deadlinePolicy, 2);
  const a = h.scheduler.openLane(() => 0);
  for (let i = 1; i <= 5; i++) h.job(a, `a-${i}`);
  expect(h.scheduler.running).toBe(2);
  expect(h.scheduler.queued).toBe(3);
  expect(a.clear()).toBe(3);
  expect(h.scheduler.queued).toBe(0);
  let idle = false;
  void h.scheduler.whenIdle().then(() => (idle = true));
  await h.finish('a-1');
  expect(idle).toBe(false);
  await h.finish('a-2');
  expect(idle).toBe(true);
  expect(h.started).toEqual(['a-1', 'a-2']);
});

test('a job that throws does not stall the queue', async () => {
  const errors: unknown[] = [];
  const s = new Scheduler({ concurrency: 1, policy: deadlinePolicy, onJobError: (e) => errors.push(e) });
  const lane = s.openLane(() => 0);
  const ran: string[] = [];
  lane.enqueue({
    estimatedAudioMs: 0,
    run: () => {
      throw new Error('boom');
    },
  });
  lane.enqueue({ estimatedAudioMs: 0, run: async () => void ran.push('second') });
  await s.whenIdle();
  await new Promise((r) => setImmediate(r));
  expect(ran).toEqual(['second']);
  expect(String(errors[0])).toMatch(/boom/);
});

test('invalid concurrency is refused', () => {
  expect(() => new Scheduler({ concurrency: 0, policy: fifoPolicy })).toThrow(/concurrency/);
});

test('duration estimator learns from observations', () => {
  const e = new AudioDurationEstimator();
  for (let i = 0; i < 50; i++) e.observe(10, 40, 1, 2000);
  expect(e.estimate(10, 1)).toBeCloseTo(2000, 0);
  expect(e.estimate(10, 2)).toBeCloseTo(1000, 0);
  expect(e.estimateText(40, 1)).toBeCloseTo(2000, 0);
});

test('the default clock is monotonic: a wall-clock jump changes no due time, and busy time counts running jobs', async () => {
  const scheduler = new Scheduler({ concurrency: 1, policy: deadlinePolicy });
  const jump = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 3_600_000); // the wall clock jumps an hour
  try {
    let release!: () => void;
    const busyLane = scheduler.openLane(() => 0);
    busyLane.enqueue({ estimatedAudioMs: 1000, run: () => new Promise<void>((r) => (release = r)) });
    const idle = scheduler.openLane(() => 0);
    const before = performance.now();
    idle.enqueue({ estimatedAudioMs: 1000, run: async () => {} });
    // A lane with nothing playing is due when its job was queued, on performance.now's clock.
    expect(scheduler.dueTime(idle)).toBeGreaterThanOrEqual(before);
    expect(scheduler.dueTime(idle)).toBeLessThanOrEqual(performance.now());
    await new Promise((r) => setTimeout(r, 20));
    expect(scheduler.busyMs()).toBeGreaterThanOrEqual(15);
    release();
    while (scheduler.running > 0 || scheduler.queued > 0) await scheduler.whenIdle();
    const finished = scheduler.busyMs();
    await new Promise((r) => setTimeout(r, 10));
    expect(scheduler.busyMs()).toBe(finished);
  } finally {
    jump.mockRestore();
  }
});
