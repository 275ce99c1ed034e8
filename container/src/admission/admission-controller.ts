// Admission control: before a new bidirectional session (or a POST) is accepted, decide from what
// the server measures online whether one more would make an admitted session run dry. Two rules,
// both cheap enough to answer a flood of connects in microseconds each: the sustained-load rule
// (sustained-load-rule.ts: would n + 1 sessions, speaking as much as sessions have lately, need
// more than ADMISSION_MAX_UTILIZATION of the model?) and the backlog rule (backlog-rule.ts: would
// one more first piece make a queued piece late?). The controller counts the sessions, integrates
// their time and keeps the refusal counters; `snapshot` reads all that without changing it.
//
// All times are on the monotonic clock the source gives (performance.now in the server).
import { BacklogRule } from './backlog-rule.ts';
import type { AdmissionDecision, AdmissionKind, LoadSnapshot, LoadSource } from './load-source.ts';
import { checkOptions, type AdmissionOptions } from './options.ts';
import { SustainedLoadRule } from './sustained-load-rule.ts';

export class AdmissionController {
  readonly options: AdmissionOptions;
  readonly #source: LoadSource;
  readonly #sustained: SustainedLoadRule;
  readonly #backlog: BacklogRule;
  #sessions = 0;
  /** Time integral of #sessions up to #integratedAt. */
  #sessionMs = 0;
  #integratedAt: number;
  #admitted = 0;
  #refusedBacklog = 0;
  #refusedSustained = 0;

  constructor(options: AdmissionOptions, source: LoadSource) {
    checkOptions(options);
    this.options = options;
    this.#source = source;
    this.#integratedAt = source.now();
    this.#sustained = new SustainedLoadRule(options, source, this.#integratedAt);
    this.#backlog = new BacklogRule(options, source);
  }

  /** Backlog passes computed (tests check that a flood does not multiply them). */
  get assessments(): number {
    return this.#backlog.assessments;
  }

  /** Keeps the sustained rule's samples current between decisions (the server calls it once a second). */
  tick(): void {
    const now = this.#source.now();
    this.#integrate(now);
    this.#sustained.sample(now, this.#sessionMs);
  }

  /** Decide on one more session (bidi) or request (POST). Admitted ones count until released. */
  admit(kind: AdmissionKind): AdmissionDecision {
    const now = this.#source.now();
    this.#integrate(now);
    if (this.options.enabled) {
      this.#sustained.sample(now, this.#sessionMs);
      const refusal =
        this.#sustained.refusal(now, this.#sessions, this.#sessionMs, kind) ?? this.#backlog.refusal(now, kind);
      if (refusal) {
        if (refusal.rule === 'backlog') this.#refusedBacklog++;
        else this.#refusedSustained++;
        return refusal;
      }
    }
    this.#sessions++;
    this.#admitted++;
    const spoke = this.options.enabled ? this.#backlog.admitted(now) : () => {};
    let released = false;
    return {
      admitted: true,
      speaking: spoke,
      release: () => {
        spoke();
        if (released) return;
        released = true;
        this.#integrate(this.#source.now());
        this.#sessions--;
      },
    };
  }

  /** The load now, as the metrics line publishes it. A pure read: calling it changes nothing. */
  snapshot(): LoadSnapshot {
    const now = this.#source.now();
    const sessionMs = this.#sessionMsAt(now);
    const demand = this.#sustained.demand(now, sessionMs);
    return {
      sessions: this.#sessions,
      sessionMs,
      capacity: this.#sustained.capacity(demand),
      speakingShare: demand.speakingShare,
      modelUtilization: demand.modelUtilization,
      prepUtilization: demand.prepUtilization,
      admitted: this.#admitted,
      refused: this.#refusedBacklog + this.#refusedSustained,
      refusedBacklog: this.#refusedBacklog,
      refusedSustained: this.#refusedSustained,
    };
  }

  #sessionMsAt(now: number): number {
    return now > this.#integratedAt ? this.#sessionMs + this.#sessions * (now - this.#integratedAt) : this.#sessionMs;
  }

  #integrate(now: number): void {
    this.#sessionMs = this.#sessionMsAt(now);
    this.#integratedAt = Math.max(this.#integratedAt, now);
  }
}
