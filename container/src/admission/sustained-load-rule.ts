// The sustained-load rule of admission control: a session that is speaking (audio playing or
// queued) needs the model for `model time per audio second` of each second; so one session needs
// that times the share of its time it speaks, measured over the last `windowMs` (blended with a
// prior share until enough session time has been seen), and likewise for the prep workers. If
// n + 1 sessions would need more than `maxUtilization` of the slots, refuse: a lull (everyone
// listening) must not let in a herd that speaks next. (The model's raw busy share per session is
// no estimate early on: an answer's synthesis comes in a burst ahead of its playback, so a young
// fleet looks several times heavier than it is. The bursts are the backlog rule's business.)
//
// The load is sampled once a second, only when `sample` is called (the controller's tick and its
// decisions); reading the demand changes nothing.
import type { AdmissionKind, LoadSource, Refused } from './load-source.ts';
import { SAMPLE_EVERY_MS, type AdmissionOptions } from './options.ts';

interface Sample {
  at: number;
  modelBusyMs: number;
  prepBusyMs: number;
  sessionMs: number;
  speakingMs: number;
}

/** Demand per session over the window, and the slots' busy shares. */
export interface Demand {
  /** Share of session time spent speaking (with the prior blended in). */
  speakingShare: number;
  /** Model time per session time (model time per audio second x the speaking share). */
  modelPerSession: number;
  prepPerSession: number;
  modelUtilization: number;
  prepUtilization: number;
}

export class SustainedLoadRule {
  readonly #options: AdmissionOptions;
  readonly #source: LoadSource;
  /** The samples in the window, oldest first. */
  readonly #samples: Sample[] = [];
  /** Time integral of the streams speaking (audio playing or queued), up to #speakingAt. */
  #speakingMs = 0;
  #speakingAt: number;
  /** Streams speaking at the last sample. */
  #speakingNow = 0;

  constructor(options: AdmissionOptions, source: LoadSource, startedAt: number) {
    this.#options = options;
    this.#source = source;
    this.#speakingAt = startedAt;
  }

  /** Takes a sample if one is due (`sessionMs`: the session-time integral up to `now`); drops those past the window. */
  sample(now: number, sessionMs: number): void {
    if (this.#due(now)) {
      const sample = this.#sampleAt(now, sessionMs);
      this.#speakingMs = sample.speakingMs;
      this.#speakingAt = Math.max(this.#speakingAt, now);
      // How many streams speak now (O(streams), once a second): integrated until the next sample.
      let speaking = 0;
      for (const b of this.#source.backlogs()) if (b.playoutEnd > now || b.pendingAudioMs.length > 0) speaking++;
      this.#speakingNow = speaking;
      this.#samples.push(sample);
    }
    const past = this.#oldest(now, this.#samples);
    if (past > 0) this.#samples.splice(0, past);
  }

  /** The demand as a sample taken now would make it; changes nothing. */
  demand(now: number, sessionMs: number): Demand {
    const source = this.#source;
    const samples = this.#due(now) ? [...this.#samples, this.#sampleAt(now, sessionMs)] : this.#samples;
    const oldest = samples[this.#oldest(now, samples)]!;
    const newest = samples.at(-1)!;
    const spanMs = newest.at - oldest.at;
    const sessionSpanMs = newest.sessionMs - oldest.sessionMs;
    const speakingMs = newest.speakingMs - oldest.speakingMs;
    const { priorSpeakingShare: prior, priorWeightMs: weight } = this.#options;
    const share =
      sessionSpanMs + weight > 0 ? Math.min(1, (speakingMs + prior * weight) / (sessionSpanMs + weight)) : prior;
    return {
      speakingShare: share,
      modelPerSession: share * source.modelMsPerAudioMs(),
      prepPerSession: share * source.prepMsPerAudioMs(),
      modelUtilization: spanMs > 0 ? (newest.modelBusyMs - oldest.modelBusyMs) / spanMs / source.modelSlots : 0,
      prepUtilization: spanMs > 0 ? (newest.prepBusyMs - oldest.prepBusyMs) / spanMs / source.prepSlots : 0,
    };
  }

  /** Why one more `kind` beside `sessions` would be refused, or null if it fits. */
  refusal(now: number, sessions: number, sessionMs: number, kind: AdmissionKind): Refused | null {
    const demand = this.demand(now, sessionMs);
    const n = sessions + 1;
    const modelNeed = (n * demand.modelPerSession) / this.#source.modelSlots;
    const need = Math.max(modelNeed, (n * demand.prepPerSession) / this.#source.prepSlots);
    if (need <= this.#options.maxUtilization + 1e-9) return null; // (float sums: 35 x 0.02 > 0.7)
    const which = modelNeed >= need ? 'model' : 'text preparation';
    return {
      admitted: false,
      rule: 'sustained',
      retryAfterS: 2,
      message:
        `${sessions} sessions, speaking ${pct(demand.speakingShare)} of the time, need ${pct(need * (sessions / n))} ` +
        `of the ${which} slots; one more ${kind} would need ${pct(need)}, over ADMISSION_MAX_UTILIZATION=${this.#options.maxUtilization}` +
        ` (capacity estimate ${this.capacity(demand)} sessions); retry later`,
    };
  }

  /** Sessions the slots hold at maxUtilization with this demand (at most maxSessions). */
  capacity(demand: Demand): number {
    const limit = (slots: number, perSession: number) => (perSession > 0 ? slots / perSession : Infinity);
    const sessions =
      this.#options.maxUtilization *
      Math.min(
        limit(this.#source.modelSlots, demand.modelPerSession),
        limit(this.#source.prepSlots, demand.prepPerSession),
      );
    return Math.min(this.#options.maxSessions, Math.floor(sessions + 1e-9));
  }

  #due(now: number): boolean {
    const last = this.#samples.at(-1);
    return !last || now - last.at >= SAMPLE_EVERY_MS;
  }

  /** The sample a `sample(now)` would take (the speaking integral carried up to now). */
  #sampleAt(now: number, sessionMs: number): Sample {
    const speakingMs =
      now > this.#speakingAt ? this.#speakingMs + this.#speakingNow * (now - this.#speakingAt) : this.#speakingMs;
    return {
      at: now,
      modelBusyMs: this.#source.modelBusyMs(),
      prepBusyMs: this.#source.prepBusyMs(),
      sessionMs,
      speakingMs,
    };
  }

  /** Index of the oldest sample the window keeps: the one before the first within windowMs of now. */
  #oldest(now: number, samples: readonly Sample[]): number {
    let i = 0;
    while (i < samples.length - 1 && now - samples[i + 1]!.at >= this.#options.windowMs) i++;
    return i;
  }
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
