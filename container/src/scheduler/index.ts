// The model-run scheduler shared by every session and request.
export { Lane, Scheduler, deadlinePolicy } from './scheduler.ts';
export type { Job, SchedulerOptions, SchedulingPolicy } from './scheduler.ts';
export { AudioDurationEstimator } from './estimate.ts';
