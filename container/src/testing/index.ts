// What other workspaces' tests and benchmarks wire into the server (never the image's own path).
export { withSimulatedDelay } from './simulated-delay.ts';
export { fifoPolicy } from './fifo.ts';
