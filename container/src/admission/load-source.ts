// What admission control reads of the server (the load source, on its monotonic clock), what it
// decides, and what it reports.

/** What one admitted stream has queued. */
export interface Backlog {
  /** When the audio already sent will have finished playing. */
  playoutEnd: number;
  /** Estimated audio (ms) of each piece not yet sent, in playing order (prepared or not). */
  pendingAudioMs: readonly number[];
  /** When the text of the first of them arrived (a new answer's first-audio clock). */
  firstArrivedAt: number;
}

/** What the server measures, read at each decision. Reading it changes nothing. */
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
