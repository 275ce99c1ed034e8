// Chores every server process of the project shares (Node only, not part of the contracts): a
// size-limited body reader, the shutdown-signal handling that SageMaker and AgentCore expect, the
// logger factory, the refusal of a WebSocket upgrade and the writer of an error answer.
export { readBody } from './read-body.ts';
export { handleShutdownSignals, type ShutdownOptions } from './shutdown.ts';
export { createLogger, LOG_LEVELS, type Logger, type LogLevel } from './logger.ts';
export { refuseUpgrade, type Refusal } from './refuse-upgrade.ts';
export { kokoroErrorBody, sendJsonError } from './send-json-error.ts';
