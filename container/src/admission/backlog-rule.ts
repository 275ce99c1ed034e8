// The backlog rule of admission control: an earliest-deadline-first pass over the audio every
// admitted stream has queued (each piece must be synthesised before the listener runs out of what
// was already sent; a new answer's first piece within `firstAudioMs`), with one newcomer's first
// piece added. Refuse if that piece would make a later piece of an admitted session late (its
// listener runs dry), or if the queue ahead would keep the newcomer's own first audio past
// `firstAudioMs`. Sessions admitted in the last `firstAudioMs` that have not queued any text yet
// count as first pieces on their way (a new session speaks soon after it connects). The pass is
// cached for `assessEveryMs`; each admission since adds its newcomer's cost, so the work per
// refusal is bounded whatever the connect rate.
import type { AdmissionKind, LoadSource, Refused } from './load-source.ts';
import type { AdmissionOptions } from './options.ts';

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

export class BacklogRule {
  readonly #options: AdmissionOptions;
  readonly #source: LoadSource;
  #assessment: Assessment | null = null;
  /** Sessions admitted in the last firstAudioMs that have not spoken yet (their first pieces are coming). */
  readonly #newcomers = new Set<{ at: number }>();
  /** Backlog passes computed (tests check that a flood does not multiply them). */
  assessments = 0;

  constructor(options: AdmissionOptions, source: LoadSource) {
    this.#options = options;
    this.#source = source;
  }

  /** Why one more `kind` would be refused now, or null if it fits. */
  refusal(now: number, kind: AdmissionKind): Refused | null {
    let a = this.#assessment;
    if (!a || now - a.at >= this.#options.assessEveryMs || now < a.at) a = this.#assessment = this.#assess(now);
    const m = a.admittedSince + 1; // this one and the ones admitted since the pass
    const slots = this.#source.modelSlots;
    const extra = (m * a.newcomerCost) / slots;
    // Pieces due after the newcomers' first ones wait for them: would one of them now run dry?
    const lateAdmitted = a.lateAfter + extra;
    // The newcomer's own first audio, beyond what the model's speed alone makes unavoidable (on a
    // model slower than the budget, an idle server must still admit).
    const unavoidable = Math.max(0, a.newcomerCost / slots - this.#options.firstAudioMs);
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
            `ADMISSION_FIRST_AUDIO_MS=${this.#options.firstAudioMs}; retry later`,
    };
  }

  /**
   * One more was admitted at `now`: its first piece counts as on its way until the returned
   * function is called (it queued its text, or is gone) or its first-audio deadline passes.
   */
  admitted(now: number): () => void {
    if (this.#assessment) this.#assessment.admittedSince++;
    const newcomer = { at: now };
    this.#newcomers.add(newcomer);
    return () => void this.#newcomers.delete(newcomer);
  }

  /** Earliest deadline first over every queued piece: how late the worst would be. */
  #assess(now: number): Assessment {
    this.assessments++;
    const { firstAudioMs } = this.#options;
    const source = this.#source;
    const perAudioMs = source.modelMsPerAudioMs();
    const runMs = source.averageRunMs();
    const cost = (audioMs: number) => (perAudioMs > 0 ? perAudioMs * audioMs : runMs);
    const jobs: { due: number; cost: number }[] = [];
    for (const b of source.backlogs()) {
      let due = b.playoutEnd > now ? b.playoutEnd : b.firstArrivedAt + firstAudioMs;
      for (const audioMs of b.pendingAudioMs) {
        jobs.push({ due, cost: cost(audioMs) });
        due += audioMs;
      }
    }
    const newcomerCost = runMs > 0 ? runMs : cost(1000);
    for (const newcomer of this.#newcomers) {
      if (newcomer.at + firstAudioMs <= now) this.#newcomers.delete(newcomer);
      else jobs.push({ due: newcomer.at + firstAudioMs, cost: newcomerCost });
    }
    jobs.sort((x, y) => x.due - y.due);
    const newcomerDue = now + firstAudioMs;
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
    return { at: now, admittedSince: 0, lateAfter, doneBeforeNewcomer, newcomerDue, newcomerCost };
  }
}
