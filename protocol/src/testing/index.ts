// Test doubles of the contracts: a fake protocol-v1 container (no model) for clients' tests; a
// capture of a server's structured log lines.
export * from './fake-container.ts';
export * from './log-capture.ts';
