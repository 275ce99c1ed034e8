// Admission control: before a new bidirectional session (or a POST) is accepted, decide from what
// the server measures online whether one more would make an admitted session run dry. Two rules,
// both cheap enough to answer a flood of connects in microseconds each:
//
// - backlog: an earliest-deadline-first pass over the audio every admitted stream has queued
//   (each piece must be synthesised before the listener runs out of what was already sent; a new
//   answer's first piece within `firstAudioMs`), with one newcomer's first piece added. Refuse if
//   that piece would make a later piece of an admitted session late (its listener runs dry), or
//   if the queue ahead would keep the newcomer's own first audio past `firstAudioMs`.
//   Sessions admitted in the last `firstAudioMs` that have not queued any text yet count as first
//   pieces on their way (a new session speaks soon after it connects). The pass is cached for `assessEveryMs`; each admission since
//   adds its newcomer's cost, so the work per refusal is bounded whatever the connect rate.
// - sustained: a session that is speaking (audio playing or queued) needs the model for `model time
//   per audio second` of each second; so one session needs that times the share of its time it
//   speaks, measured over the last `windowMs` (blended with a prior share until enough session time
//   has been seen), and likewise for the prep workers. If n + 1 sessions would need more than
//   `maxUtilization` of the slots, refuse: a lull (everyone listening) must not let in a herd that
//   speaks next. (The model's raw busy share per session is no estimate early on: an answer's
//   synthesis comes in a burst ahead of its playback, so a young fleet looks several times heavier
//   than it is. The bursts are the backlog rule's business.)
//
// All times are on the monotonic clock the source gives (performance.now in the server).

export interface AdmissionOptions {
  /** Off: everything is admitted (load is still measured and published). */
  enabled: boolean;
  /** Busy share of the model (and prep) slots that n + 1 sessions may need (0-1). */
  maxUtilization: number;
  /** A new answer's first audio must be ready this soon after its text arrives (backlog rule). */
  firstAudioMs: number;
  /** How far back the sustained rule measures load. */
  windowMs: number;
  /** Share of its time a session is assumed to speak before there is data (the prior). */
  priorSpeakingShare: number;
  /** Session time (ms, summed over sessions) after which the measurement and the prior weigh the same. */
  priorWeightMs: number;
  /** The backlog pass is recomputed at most this often. */
  assessEveryMs: number;
  /** Upper bound of the capacity estimate (MAX_SESSIONS). */
  maxSessions: number;
}

export const DEFAULT_ADMISSION: AdmissionOptions = {
  enabled: true,
  maxUtilization: 0.7,
  firstAudioMs: 400,
  windowMs: 30_000,
  priorSpeakingShare: 0.5,
  priorWeightMs: 20_000,
  assessEveryMs: 25,
  maxSessions: 256,
};

/** What one admitted stream has queued. */
export interface Backlog {
  /** When the audio already sent will have finished playing. */
  playoutEnd: number;
  /** Estimated audio (ms) of each piece not yet sent, in playing order (prepared or not). */
  pendingAudioMs: readonly number[];
  /** When the text of the first of them arrived (a new answer's first-audio clock). */
  firstArrivedAt: number;
}

/** What the server measures, read at each decision. */
export interface LoadSource {
  now(): number;
  backlogs(): Iterable<Backlog>;
  /** Model run time so far (summed over slots), and the slots (MAX_CONCURRENT_RUNS). */
  modelBusyMs(): number;
  modelSlots: number;
  /** Text preparation time so far, and the prep workers. */
  prepBusyMs(): number;
  prepSlots: number;
  /** Model time per audio time, learnt from finished runs (0 before any). */
  modelMsPerAudioMs(): number;
  /** Preparation time per (estimated) audio time (0 before any). */
  prepMsPerAudioMs(): number;
  /** Average model run (ms): the cost of a newcomer's first piece. */
  averageRunMs(): number;
}

export type AdmissionKind = 'session' | 'request';

export interface Admitted {
  admitted: true;
  /** Call when its first text is queued: from then on its own backlog shows its work. Idempotent. */
  speaking(): void;
  /** Call once the session or request is over. Idempotent. */
  release(): void;
}

export interface Refused {
  admitted: false;
  rule: 'backlog' | 'sustained';
  /** Seconds to wait before trying again (Retry-After). */
  retryAfterS: number;
  /** Names the rule and the figures it used. */
  message: string;
}

export type AdmissionDecision = Admitted | Refused;

export interface LoadSnapshot {
  /** Sessions and requests admitted and not released. */
  sessions: number;
  /** Time integral of `sessions` since start (session-ms), for averages over an interval. */
  sessionMs: number;
  /** Sessions the server could hold at maxUtilization, from the measured demand per session. */
  capacity: number;
  /** Share of session time spent speaking over the window (with the prior blended in). */
  speakingShare: number;
  /** Busy share of the model slots over the window (0-1). */
  modelUtilization: number;
  prepUtilization: number;
  admitted: number;
  refused: number;
  /** Refusals by rule, since start. */
  refusedBacklog: number;
  refusedSustained: number;
}

interface Sample {
  at: number;
  modelBusyMs: number;
  prepBusyMs: number;
  sessionMs: number;
  speakingMs: number;
}

interface Assessment {
  at: number;
  /** Admissions since this assessment (each adds a newcomer's piece). */
  admittedSince: number;
  /** Worst lateness of the pieces due after it, without the newcomer. */
  lateAfter: number;
  /** When the pieces due before the newcomer's would be done. */
  doneBeforeNewcomer: number;
  newcomerDue: number;
  newcomerCost: number;
}

const SAMPLE_EVERY_MS = 1000;

export class AdmissionController {
  readonly options: AdmissionOptions;
  readonly #source: LoadSource;
  #sessions = 0;
  #sessionMs = 0;
  #integratedAt: number;
  /** Time integral of the streams speaking (audio playing or queued), sampled once a second. */
  #speakingMs = 0;
  #speakingAt: number;
  #speakingNow = 0;
  #admitted = 0;
  #refusedBacklog = 0;
  #refusedSustained = 0;
  readonly #samples: Sample[] = [];
  #assessment: Assessment | null = null;
  /** Sessions admitted in the last firstAudioMs that have not spoken yet (their first pieces are coming). */
  readonly #newcomers = new Set<{ at: number }>();
  /** Backlog passes computed (tests check that a flood does not multiply them). */
  assessments = 0;

  constructor(options: AdmissionOptions, source: LoadSource) {
    checkOptions(options);
    this.options = options;
    this.#source = source;
    this.#integratedAt = source.now();
    this.#speakingAt = this.#integratedAt;
  }

  /** Decide on one more session (bidi) or request (POST). Admitted ones count until released. */
  admit(kind: AdmissionKind): AdmissionDecision {
    const now = this.#source.now();
    this.#integrate(now);
    if (this.options.enabled) {
      const refusal = this.#sustainedRefusal(now, kind) ?? this.#backlogRefusal(now, kind);
      if (refusal) {
        if (refusal.rule === 'backlog') this.#refusedBacklog++;
        else this.#refusedSustained++;
        return refusal;
      }
    }
    this.#sessions++;
    this.#admitted++;
    const newcomer = { at: now };
    if (this.options.enabled) {
      if (this.#assessment) this.#assessment.admittedSince++;
      this.#newcomers.add(newcomer);
    }
    let released = false;
    return {
      admitted: true,
      speaking: () => void this.#newcomers.delete(newcomer),
      release: () => {
        this.#newcomers.delete(newcomer);
        if (released) return;
        released = true;
        this.#integrate(this.#source.now());
        this.#sessions--;
      },
    };
  }

  snapshot(): LoadSnapshot {
    const now = this.#source.now();
    this.#integrate(now);
    const demand = this.#demand(now);
    return {
      sessions: this.#sessions,
      sessionMs: this.#sessionMs,
      capacity: this.#capacity(demand),
      speakingShare: demand.speakingShare,
      modelUtilization: demand.modelUtilization,
      prepUtilization: demand.prepUtilization,
      admitted: this.#admitted,
      refused: this.#refusedBacklog + this.#refusedSustained,
      refusedBacklog: this.#refusedBacklog,
      refusedSustained: this.#refusedSustained,
    };
  }

  // ---- the sustained rule ----

  #sustainedRefusal(now: number, kind: AdmissionKind): Refused | null {
    const demand = this.#demand(now);
    const n = this.#sessions + 1;
    const need = Math.max(
      (n * demand.modelPerSession) / this.#source.modelSlots,
      (n * demand.prepPerSession) / this.#source.prepSlots,
    );
    if (need <= this.options.maxUtilization + 1e-9) return null; // (float sums: 35 x 0.02 > 0.7)
    const which = (n * demand.modelPerSession) / this.#source.modelSlots >= need ? 'model' : 'text preparation';
    return {
      admitted: false,
      rule: 'sustained',
      retryAfterS: 2,
      message:
        `${this.#sessions} sessions, speaking ${pct(demand.speakingShare)} of the time, need ${pct(need * (this.#sessions / n))} ` +
        `of the ${which} slots; one more ${kind} would need ${pct(need)}, over ADMISSION_MAX_UTILIZATION=${this.options.maxUtilization}` +
        ` (capacity estimate ${this.#capacity(demand)} sessions); retry later`,
    };
  }

  /** Demand per session: time per audio second x the speaking share, over the window, with the prior. */
  #demand(now: number) {
    const source = this.#source;
    const last = this.#samples.at(-1);
    if (!last || now - last.at >= SAMPLE_EVERY_MS) {
      // Once a second: how many streams speak now (O(streams)), integrated since the last sample.
      if (now > this.#speakingAt) this.#speakingMs += this.#speakingNow * (now - this.#speakingAt);
      this.#speakingAt = Math.max(this.#speakingAt, now);
      let speaking = 0;
      for (const b of source.backlogs()) if (b.playoutEnd > now || b.pendingAudioMs.length > 0) speaking++;
      this.#speakingNow = speaking;
      this.#samples.push({
        at: now,
        modelBusyMs: source.modelBusyMs(),
        prepBusyMs: source.prepBusyMs(),
        sessionMs: this.#sessionMs,
        speakingMs: this.#speakingMs,
      });
    }
    while (this.#samples.length > 1 && now - this.#samples[1]!.at >= this.options.windowMs) this.#samples.shift();
    const oldest = this.#samples[0]!;
    const newest = this.#samples.at(-1)!;
    const spanMs = newest.at - oldest.at;
    const sessionMs = newest.sessionMs - oldest.sessionMs;
    const speakingMs = newest.speakingMs - oldest.speakingMs;
    const { priorSpeakingShare: prior, priorWeightMs: weight } = this.options;
    const share = sessionMs + weight > 0 ? Math.min(1, (speakingMs + prior * weight) / (sessionMs + weight)) : prior;
    return {
      speakingShare: share,
      modelPerSession: share * source.modelMsPerAudioMs(),
      prepPerSession: share * source.prepMsPerAudioMs(),
      modelUtilization: spanMs > 0 ? (newest.modelBusyMs - oldest.modelBusyMs) / spanMs / source.modelSlots : 0,
      prepUtilization: spanMs > 0 ? (newest.prepBusyMs - oldest.prepBusyMs) / spanMs / source.prepSlots : 0,
    };
  }

  #capacity(demand: { modelPerSession: number; prepPerSession: number }): number {
    const limit = (slots: number, perSession: number) => (perSession > 0 ? slots / perSession : Infinity);
    const sessions =
      this.options.maxUtilization *
      Math.min(
        limit(this.#source.modelSlots, demand.modelPerSession),
        limit(this.#source.prepSlots, demand.prepPerSession),
      );
    return Math.min(this.options.maxSessions, Math.floor(sessions + 1e-9));
  }

  // ---- the backlog rule ----

  #backlogRefusal(now: number, kind: AdmissionKind): Refused | null {
    let a = this.#assessment;
    if (!a || now - a.at >= this.options.assessEveryMs || now < a.at) a = this.#assessment = this.#assess(now);
    const m = a.admittedSince + 1; // this one and the ones admitted since the pass
    const slots = this.#source.modelSlots;
    const extra = (m * a.newcomerCost) / slots;
    // Pieces due after the newcomers' first ones wait for them: would one of them now run dry?
    const lateAdmitted = a.lateAfter + extra;
    // The newcomer's own first audio, beyond what the model's speed alone makes unavoidable (on a
    // model slower than the budget, an idle server must still admit).
    const unavoidable = Math.max(0, a.newcomerCost / slots - this.options.firstAudioMs);
    const lateNewcomer = a.doneBeforeNewcomer + extra - a.newcomerDue - unavoidable;
    const late = Math.max(lateAdmitted, lateNewcomer);
    if (late <= 1e-6) return null; // (float: an idle server on a slow model sits at exactly 0)
    return {
      admitted: false,
      rule: 'backlog',
      retryAfterS: Math.max(1, Math.ceil(late / 1000)),
      message:
        lateAdmitted >= lateNewcomer
          ? `one more ${kind} would make an admitted session's audio run dry ${Math.round(lateAdmitted)} ms before its next piece is ready; retry later`
          : `the audio already queued would keep one more ${kind} from its first audio for ${Math.round(lateNewcomer)} ms past ` +
            `ADMISSION_FIRST_AUDIO_MS=${this.options.firstAudioMs}; retry later`,
    };
  }

  /** Earliest deadline first over every queued piece: how late the worst would be. */
  #assess(now: number): Assessment {
    this.assessments++;
    const source = this.#source;
    const perAudioMs = source.modelMsPerAudioMs();
    const runMs = source.averageRunMs();
    const cost = (audioMs: number) => (perAudioMs > 0 ? perAudioMs * audioMs : runMs);
    const jobs: { due: number; cost: number }[] = [];
    for (const b of source.backlogs()) {
      let due = b.playoutEnd > now ? b.playoutEnd : b.firstArrivedAt + this.options.firstAudioMs;
      for (const audioMs of b.pendingAudioMs) {
        jobs.push({ due, cost: cost(audioMs) });
        due += audioMs;
      }
    }
    const newcomerCost = runMs > 0 ? runMs : cost(1000);
    for (const newcomer of this.#newcomers) {
      if (newcomer.at + this.options.firstAudioMs <= now) this.#newcomers.delete(newcomer);
      else jobs.push({ due: newcomer.at + this.options.firstAudioMs, cost: newcomerCost });
    }
    jobs.sort((x, y) => x.due - y.due);
    const newcomerDue = now + this.options.firstAudioMs;
    let t = now;
    let lateAfter = -Infinity;
    let doneBeforeNewcomer = now;
    for (const job of jobs) {
      t += job.cost / source.modelSlots;
      if (job.due <= newcomerDue) {
        doneBeforeNewcomer = t;
      } else {
        lateAfter = Math.max(lateAfter, t - job.due);
      }
    }
    return {
      at: now,
      admittedSince: 0,
      lateAfter,
      doneBeforeNewcomer,
      newcomerDue,
      newcomerCost,
    };
  }

  #integrate(now: number): void {
    if (now > this.#integratedAt) this.#sessionMs += this.#sessions * (now - this.#integratedAt);
    this.#integratedAt = Math.max(this.#integratedAt, now);
  }
}

function checkOptions(o: AdmissionOptions): void {
  const bad: string[] = [];
  if (!(o.maxUtilization > 0 && o.maxUtilization <= 1)) bad.push(`maxUtilization ${o.maxUtilization} (0-1)`);
  if (!(o.firstAudioMs > 0)) bad.push(`firstAudioMs ${o.firstAudioMs} (> 0)`);
  if (!(o.windowMs >= SAMPLE_EVERY_MS)) bad.push(`windowMs ${o.windowMs} (>= ${SAMPLE_EVERY_MS})`);
  if (!(o.priorSpeakingShare >= 0 && o.priorSpeakingShare <= 1))
    bad.push(`priorSpeakingShare ${o.priorSpeakingShare} (0-1)`);
  if (!(o.priorWeightMs >= 0)) bad.push(`priorWeightMs ${o.priorWeightMs} (>= 0)`);
  if (!(o.assessEveryMs >= 0)) bad.push(`assessEveryMs ${o.assessEveryMs} (>= 0)`);
  if (bad.length) throw new RangeError(`admission options out of range: ${bad.join(', ')}`);
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
