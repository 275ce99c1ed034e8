// The admission controller's settings (ADMISSION_* in the container's environment), their
// defaults, and the check that refuses a setting out of range with every problem named.

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

/** How often the sustained rule samples the load (its window holds at least one period). */
export const SAMPLE_EVERY_MS = 1000;

export function checkOptions(o: AdmissionOptions): void {
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
