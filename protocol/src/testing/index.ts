// Test doubles of the contracts: a fake protocol-v1 container (no model) for clients' tests.
export * from './fake-container.ts';
export * from './log-sink.ts';
