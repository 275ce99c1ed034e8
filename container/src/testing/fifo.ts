// The load benchmark's baseline order (container/bench/load.ts): first come, first served, with no
// regard for whose listener is about to run out of audio (docs/design/scheduling.md).
import type { SchedulingPolicy } from '../scheduler/index.ts';

export const fifoPolicy: SchedulingPolicy = (readyAt) => readyAt;
