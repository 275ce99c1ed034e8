// The benchmark's server processes: the container's own child-process runner.
export { startServerProcess, type ServerProcess } from '../src/process/index.ts';
