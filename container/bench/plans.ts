// The simulated voice-agent sessions of the load benchmarks (container/bench/load.ts and the
// fleet benchmark in local/bench): when each starts, how long it thinks, what it says.
import { seededRandom } from './stats.ts';
import type { SessionPlan } from './session.ts';

// What a support or assistant agent says, sentence by sentence (30-140 characters).
export const SENTENCES = [
  'Sure, I can help you with that.',
  'I found your order from last Tuesday, and it shipped this morning from our warehouse in Ohio.',
  'It should arrive by Thursday afternoon.',
  'The tracking number is in the confirmation email we sent you, along with a link to follow the parcel.',
  'If you would rather pick it up, the nearest store is about ten minutes from your address.',
  'Is there anything else I can do for you today?',
  'Let me check that for you.',
  'Your current plan includes unlimited calls and twenty gigabytes of data each month.',
  'You have used about twelve gigabytes so far this cycle, so you are well within your allowance.',
  'The next billing date is the fifteenth.',
  'Upgrading would add roll-over data and international roaming in thirty countries.',
  'Would you like me to send the details by text message?',
  'Good question.',
  'The museum opens at nine and closes at six, except on Mondays when it is closed all day.',
  'Tickets are cheaper online, and children under twelve get in for free.',
  'I would recommend going early, since the afternoon tours are often fully booked.',
];

/**
 * The flags (node:util parseArgs options) both load benchmarks take for their sessions and the
 * simulated model's pace, with one default each so that their figures compare.
 */
export const PLAN_FLAGS = {
  turns: { type: 'string', default: '2' },
  sentences: { type: 'string', default: '4' },
  'think-ms': { type: 'string', default: '2000' },
  'stagger-ms': { type: 'string', default: '10000' },
  'llm-ms-per-char': { type: 'string', default: '4' },
  'delay-ms': { type: 'string', default: '60' },
  'per-char-ms': { type: 'string', default: '0.4' },
  seed: { type: 'string', default: '1' },
} as const;

/** A reader of numeric flags: `num('turns')`; a value that is not a non-negative number is named. */
export function numericFlags<K extends string>(flags: Partial<Record<K, string | boolean>>): (name: K) => number {
  return (name) => {
    const v = Number(flags[name]);
    if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} must be a non-negative number, got ${flags[name]}`);
    return v;
  };
}

/** The plan options the PLAN_FLAGS give. */
export function planOptionsFrom(num: (name: keyof typeof PLAN_FLAGS) => number): PlanOptions {
  return {
    seed: num('seed'),
    staggerMs: num('stagger-ms'),
    thinkMs: num('think-ms'),
    llmMsPerChar: num('llm-ms-per-char'),
    turns: num('turns'),
    sentences: num('sentences'),
  };
}

export interface PlanOptions {
  seed: number;
  staggerMs: number;
  thinkMs: number;
  llmMsPerChar: number;
  turns: number;
  sentences: number;
}

/** `n` sessions, the same for the same seed (runs compare). */
export function planSessions(n: number, o: PlanOptions): SessionPlan[] {
  const random = seededRandom(o.seed);
  return Array.from({ length: n }, () => ({
    startDelayMs: n === 1 ? 0 : random() * o.staggerMs,
    thinkMs: o.thinkMs * (0.5 + random()),
    llmMsPerChar: o.llmMsPerChar,
    turns: Array.from({ length: o.turns }, () =>
      Array.from({ length: o.sentences }, () => SENTENCES[Math.floor(random() * SENTENCES.length)]!),
    ),
  }));
}
