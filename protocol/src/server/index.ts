// Chores every server process of the project shares (Node only, not part of the contracts): a
// size-limited body reader and the shutdown-signal handling that SageMaker and AgentCore expect.
export { readBody } from './read-body.ts';
export { handleShutdownSignals, type ShutdownOptions } from './shutdown.ts';
