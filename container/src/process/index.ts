// The container as a child process (benchmarks, `npm start --instances N`).
export { startServerProcess } from './server-process.ts';
export type { ServerProcess, ServerProcessOptions } from './server-process.ts';
