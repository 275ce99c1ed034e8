// One queue of model runs across all sessions, with bounded concurrency, ordered by playback
// deadline (a benchmark passes its own order: first-come-first-served, src/testing/fifo.ts).
//
// Each session (or POST request) is a Lane: its jobs run in the order they were enqueued. Only a
// lane's head job competes. Under `deadline`, it must be done when the lane's listener runs out
// of audio, so it is due to start at max(when it was enqueued, the end of the audio already sent,
// pushed back by the estimated audio of the lane's jobs now running, minus the lead time a job
// needs (by default the average run)). A session with nothing audible queued is therefore due
// "now" (its enqueue time), ahead of sessions that still have audio playing.

/** When a lane's head job is due (lower runs first), from when it was enqueued and its playback
 *  deadline (computed on demand). */
export type SchedulingPolicy = (readyAt: number, deadline: () => number) => number;

/** Ours: the head job is due at its playback deadline. */
export const deadlinePolicy: SchedulingPolicy = (_readyAt, deadline) => deadline();

export interface Job {
  /** Estimated length of the audio this job produces, in ms (places the lane's next job). */
  estimatedAudioMs: number;
  /** The model run and the delivery of its result; settles when the run is over. */
  run(): Promise<void>;
}

export interface SchedulerOptions {
  /** Model runs in flight at once (>= 1). */
  concurrency: number;
  /** Default: deadlinePolicy. */
  policy?: SchedulingPolicy;
  /** Monotonic clock in ms (default performance.now: a wall-clock jump must not reorder work); tests pass a fake one. */
  now?: () => number;
  /** A job's run() rejected (jobs report their own errors; this is the last resort). */
  onJobError?: (error: unknown) => void;
  /** Time a job needs before its audio can play, in ms (default: this scheduler's average run). */
  leadMs?: () => number;
}

interface QueuedJob {
  job: Job;
  readyAt: number;
  seq: number;
}

export class Lane {
  /** @internal */ readonly queue: QueuedJob[] = [];
  /** @internal */ runningAudioMs = 0;
  /** @internal */ runningJobs = 0;
  readonly #scheduler: Scheduler;
  /** Clock ms (the scheduler's monotonic clock) at which the audio already sent on this lane will have finished playing. */
  readonly playoutEnd: () => number;

  /** @internal use Scheduler.openLane */
  constructor(scheduler: Scheduler, playoutEnd: () => number) {
    this.#scheduler = scheduler;
    this.playoutEnd = playoutEnd;
  }

  enqueue(job: Job): void {
    this.#scheduler.enqueue(this, job);
  }

  /** Drops every queued job of this lane at once; running jobs finish (their owner discards them). */
  clear(): number {
    return this.#scheduler.clear(this);
  }

  get queued(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.runningJobs;
  }
}

export class Scheduler {
  readonly concurrency: number;
  readonly policy: SchedulingPolicy;
  readonly #now: () => number;
  readonly #onJobError: (error: unknown) => void;
  readonly #leadMs: () => number;
  readonly #lanes = new Set<Lane>();
  #seq = 0;
  #queuedTotal = 0;
  #runningTotal = 0;
  #idleWaiters: (() => void)[] = [];
  /** Run time of the jobs that have finished, in ms (busyMs() adds the ones running). */
  #finishedBusyMs = 0;
  /** Start times of the jobs running now. */
  readonly #runningSince = new Set<{ at: number }>();
  /** Moving average of a model run's wall time, for Retry-After estimates. */
  averageRunMs = 0;

  constructor(options: SchedulerOptions) {
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
      throw new Error(`scheduler concurrency must be an integer >= 1, got ${options.concurrency}`);
    }
    this.concurrency = options.concurrency;
    this.policy = options.policy ?? deadlinePolicy;
    this.#now = options.now ?? (() => performance.now());
    this.#onJobError = options.onJobError ?? (() => {});
    this.#leadMs = options.leadMs ?? (() => this.averageRunMs);
  }

  openLane(playoutEnd: () => number): Lane {
    const lane = new Lane(this, playoutEnd);
    this.#lanes.add(lane);
    return lane;
  }

  /** Clears the lane's queue and forgets it once its running jobs end. */
  closeLane(lane: Lane): void {
    this.clear(lane);
    if (lane.runningJobs === 0) this.#lanes.delete(lane);
  }

  get queued(): number {
    return this.#queuedTotal;
  }

  get running(): number {
    return this.#runningTotal;
  }

  /** Time spent running jobs so far, summed over the slots (finished runs plus the running ones' elapsed time). */
  busyMs(): number {
    const now = this.#now();
    let busy = this.#finishedBusyMs;
    for (const { at } of this.#runningSince) busy += now - at;
    return busy;
  }

  /** The lanes with work queued or running (for load assessment; do not modify them). */
  lanes(): IterableIterator<Lane> {
    return this.#lanes.values();
  }

  /** Resolves once no job is running (queued jobs are not waited for). */
  whenIdle(): Promise<void> {
    if (this.#runningTotal === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** @internal */
  enqueue(lane: Lane, job: Job): void {
    if (!this.#lanes.has(lane)) this.#lanes.add(lane);
    lane.queue.push({ job, readyAt: this.#now(), seq: this.#seq++ });
    this.#queuedTotal++;
    this.#pump();
  }

  /** @internal */
  clear(lane: Lane): number {
    const dropped = lane.queue.length;
    lane.queue.length = 0;
    this.#queuedTotal -= dropped;
    return dropped;
  }

  /** When the lane's head job is due under the current policy (lower runs first). */
  dueTime(lane: Lane): number {
    const head = lane.queue[0];
    if (!head) return Number.POSITIVE_INFINITY;
    return this.policy(head.readyAt, () => {
      const playoutEnd = lane.playoutEnd();
      // audio still being made starts playing no earlier than now
      const dryAt = lane.runningJobs > 0 ? Math.max(playoutEnd, this.#now()) + lane.runningAudioMs : playoutEnd;
      return Math.max(head.readyAt, dryAt - this.#leadMs());
    });
  }

  /** The lane whose head job runs next, or undefined when nothing is queued. */
  pickLane(): Lane | undefined {
    let best: Lane | undefined;
    let bestDue = Number.POSITIVE_INFINITY;
    let bestSeq = Number.POSITIVE_INFINITY;
    for (const lane of this.#lanes) {
      const head = lane.queue[0];
      if (!head) continue;
      const due = this.dueTime(lane);
      if (due < bestDue || (due === bestDue && head.seq < bestSeq)) {
        best = lane;
        bestDue = due;
        bestSeq = head.seq;
      }
    }
    return best;
  }

  #pump(): void {
    while (this.#runningTotal < this.concurrency) {
      const lane = this.pickLane();
      if (!lane) return;
      const { job } = lane.queue.shift()!;
      this.#queuedTotal--;
      this.#start(lane, job);
    }
  }

  #start(lane: Lane, job: Job): void {
    this.#runningTotal++;
    lane.runningJobs++;
    lane.runningAudioMs += job.estimatedAudioMs;
    const started = this.#now();
    const since = { at: started };
    this.#runningSince.add(since);
    const finish = () => {
      this.#runningSince.delete(since);
      this.#runningTotal--;
      lane.runningJobs--;
      lane.runningAudioMs -= job.estimatedAudioMs;
      const took = this.#now() - started;
      this.#finishedBusyMs += took;
      this.averageRunMs = this.averageRunMs === 0 ? took : 0.9 * this.averageRunMs + 0.1 * took;
      if (lane.runningJobs === 0 && lane.queue.length === 0) this.#lanes.delete(lane);
      if (this.#runningTotal === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
      this.#pump();
    };
    let running: Promise<void>;
    try {
      running = job.run();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.catch(this.#onJobError).finally(finish);
  }
}
